// Writes a tiny GGUF model (format version 3) for tests: llama architecture, a byte-level SentencePiece vocabulary
// (<unk>, <s>, </s> and the 256 byte tokens), seeded random F32 weights. It talks nonsense, but llama.cpp loads it,
// streams from it and stops it like any model, with no file from outside the repo.
import { writeFileSync } from 'node:fs';
import { prng as rng } from './prng.js';

const T = { U32: 4, I32: 5, F32: 6, BOOL: 7, STRING: 8, ARRAY: 9 } as const;
type Value =
  | { t: 'u32'; v: number }
  | { t: 'f32'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'str'; v: string }
  | { t: 'strs'; v: string[] }
  | { t: 'f32s'; v: number[] }
  | { t: 'i32s'; v: number[] };

export interface TinyGgufOptions {
  /** Written as tokenizer.chat_template when given. */
  chatTemplate?: string;
  contextLength?: number;
  seed?: number;
}

class Out {
  private readonly chunks: Buffer[] = [];
  size = 0;
  push(b: Buffer): void {
    this.chunks.push(b);
    this.size += b.length;
  }
  u32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }
  i32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    this.push(b);
  }
  u64(n: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }
  f32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(n);
    this.push(b);
  }
  str(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  pad(align: number): void {
    const rest = this.size % align;
    if (rest) this.push(Buffer.alloc(align - rest));
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}


export const EOS_ID = 2;

/** The GGUF bytes of a random llama model: 1 block, 32 wide, 2 heads, 259 tokens. */
export function tinyGguf(opts: TinyGgufOptions = {}): Buffer {
  const nEmbd = 32;
  const nFf = 64;
  const nHead = 2;
  const nVocab = 259;
  const rand = rng(opts.seed ?? 7);
  const tokens = ['<unk>', '<s>', '</s>', ...Array.from({ length: 256 }, (_, i) => `<0x${i.toString(16).toUpperCase().padStart(2, '0')}>`)];
  const kv: Array<[string, Value]> = [
    ['general.architecture', { t: 'str', v: 'llama' }],
    ['general.name', { t: 'str', v: 'wisp-test-random' }],
    ['general.alignment', { t: 'u32', v: 32 }],
    ['llama.context_length', { t: 'u32', v: opts.contextLength ?? 2048 }],
    ['llama.embedding_length', { t: 'u32', v: nEmbd }],
    ['llama.block_count', { t: 'u32', v: 1 }],
    ['llama.feed_forward_length', { t: 'u32', v: nFf }],
    ['llama.attention.head_count', { t: 'u32', v: nHead }],
    ['llama.attention.head_count_kv', { t: 'u32', v: nHead }],
    ['llama.attention.layer_norm_rms_epsilon', { t: 'f32', v: 1e-5 }],
    ['llama.rope.dimension_count', { t: 'u32', v: nEmbd / nHead }],
    ['tokenizer.ggml.model', { t: 'str', v: 'llama' }],
    ['tokenizer.ggml.tokens', { t: 'strs', v: tokens }],
    ['tokenizer.ggml.scores', { t: 'f32s', v: tokens.map(() => 0) }],
    // 2 unknown, 3 control, 6 byte
    ['tokenizer.ggml.token_type', { t: 'i32s', v: tokens.map((_, i) => (i === 0 ? 2 : i < 3 ? 3 : 6)) }],
    ['tokenizer.ggml.bos_token_id', { t: 'u32', v: 1 }],
    ['tokenizer.ggml.eos_token_id', { t: 'u32', v: EOS_ID }],
    ['tokenizer.ggml.unknown_token_id', { t: 'u32', v: 0 }],
    ['tokenizer.ggml.add_bos_token', { t: 'bool', v: true }],
  ];
  if (opts.chatTemplate !== undefined) kv.push(['tokenizer.chat_template', { t: 'str', v: opts.chatTemplate }]);

  // ne[0] is the innermost dimension, as in ggml.
  const tensors: Array<{ name: string; ne: number[]; fill?: (row: number) => number }> = [
    { name: 'token_embd.weight', ne: [nEmbd, nVocab] },
    { name: 'output_norm.weight', ne: [nEmbd], fill: () => 1 },
    // The end-of-sequence row is zero: its logit is 0 while the best of 258 random ones is positive, so the model
    // never stops by itself and length tests are deterministic.
    { name: 'output.weight', ne: [nEmbd, nVocab], fill: (row) => (row === EOS_ID ? 0 : (rand() - 0.5) * 4) },
    { name: 'blk.0.attn_norm.weight', ne: [nEmbd], fill: () => 1 },
    { name: 'blk.0.attn_q.weight', ne: [nEmbd, nEmbd] },
    { name: 'blk.0.attn_k.weight', ne: [nEmbd, nEmbd] },
    { name: 'blk.0.attn_v.weight', ne: [nEmbd, nEmbd] },
    { name: 'blk.0.attn_output.weight', ne: [nEmbd, nEmbd] },
    { name: 'blk.0.ffn_norm.weight', ne: [nEmbd], fill: () => 1 },
    { name: 'blk.0.ffn_gate.weight', ne: [nEmbd, nFf] },
    { name: 'blk.0.ffn_up.weight', ne: [nEmbd, nFf] },
    { name: 'blk.0.ffn_down.weight', ne: [nFf, nEmbd] },
  ];

  const out = new Out();
  out.push(Buffer.from('GGUF', 'latin1'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(kv.length);
  for (const [key, value] of kv) {
    out.str(key);
    switch (value.t) {
      case 'u32':
        out.u32(T.U32);
        out.u32(value.v);
        break;
      case 'f32':
        out.u32(T.F32);
        out.f32(value.v);
        break;
      case 'bool':
        out.u32(T.BOOL);
        out.push(Buffer.from([value.v ? 1 : 0]));
        break;
      case 'str':
        out.u32(T.STRING);
        out.str(value.v);
        break;
      case 'strs':
        out.u32(T.ARRAY);
        out.u32(T.STRING);
        out.u64(value.v.length);
        value.v.forEach((s) => out.str(s));
        break;
      case 'f32s':
        out.u32(T.ARRAY);
        out.u32(T.F32);
        out.u64(value.v.length);
        value.v.forEach((n) => out.f32(n));
        break;
      case 'i32s':
        out.u32(T.ARRAY);
        out.u32(T.I32);
        out.u64(value.v.length);
        value.v.forEach((n) => out.i32(n));
        break;
    }
  }
  const datas: Buffer[] = [];
  let offset = 0;
  for (const t of tensors) {
    const count = t.ne.reduce((a, b) => a * b, 1);
    const data = Buffer.alloc(count * 4);
    const rowLen = t.ne[0]!;
    for (let i = 0; i < count; i++) data.writeFloatLE(t.fill ? t.fill(Math.floor(i / rowLen)) : (rand() - 0.5) * 0.5, i * 4);
    out.str(t.name);
    out.u32(t.ne.length);
    t.ne.forEach((n) => out.u64(n));
    out.u32(0); // F32
    out.u64(offset);
    const padded = Math.ceil(data.length / 32) * 32;
    datas.push(Buffer.concat([data, Buffer.alloc(padded - data.length)]));
    offset += padded;
  }
  out.pad(32);
  datas.forEach((d) => out.push(d));
  return out.bytes();
}

export function writeTinyGguf(path: string, opts: TinyGgufOptions = {}): Buffer {
  const bytes = tinyGguf(opts);
  writeFileSync(path, bytes);
  return bytes;
}

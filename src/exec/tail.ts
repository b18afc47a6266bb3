// Keeps the last N bytes of a stream, so a command that prints gigabytes costs about N bytes of memory, not gigabytes.

/** A bounded buffer that keeps only the tail of what is written to it. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private held = 0;
  private dropped = 0;

  /** @param limit bytes kept; older bytes are dropped as new ones arrive. */
  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 0) {
      throw new RangeError(`tail limit must be a non-negative integer: ${limit}`);
    }
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (chunk.length >= this.limit) {
      // One chunk fills the buffer on its own: keep a copy of its end, so the big chunk can be collected.
      this.dropped += this.held + chunk.length - this.limit;
      this.chunks = this.limit > 0 ? [Buffer.from(chunk.subarray(chunk.length - this.limit))] : [];
      this.held = this.limit;
      return;
    }
    this.chunks.push(chunk);
    this.held += chunk.length;
    // Drop whole chunks from the front while what remains still covers the limit.
    while (this.chunks.length > 1 && this.held - this.chunks[0].length >= this.limit) {
      const first = this.chunks.shift() as Buffer;
      this.held -= first.length;
      this.dropped += first.length;
    }
  }

  /** Bytes currently held: at most `limit` plus one partial chunk. */
  get retainedBytes(): number {
    return this.held;
  }

  /** True once any byte has been dropped. */
  get truncated(): boolean {
    return this.dropped > 0 || this.held > this.limit;
  }

  /** The last `limit` bytes written. */
  bytes(): Buffer {
    const all = Buffer.concat(this.chunks, this.held);
    return all.length > this.limit ? all.subarray(all.length - this.limit) : all;
  }

  /** The tail as text: see {@link decodeOutput}. */
  text(): string {
    return decodeOutput(this.bytes(), this.truncated);
  }
}

/**
 * Turns command output into text that is safe to hand to a model or a JSON encoder: invalid UTF-8 and NUL bytes
 * become U+FFFD. When the bytes are a tail cut from a longer stream, up to three leading UTF-8 continuation bytes
 * are skipped so the text starts on a character boundary rather than with a spurious replacement character.
 */
export function decodeOutput(bytes: Buffer, cutAtStart = false): string {
  let start = 0;
  if (cutAtStart) {
    while (start < bytes.length && start < 3 && (bytes[start] & 0xc0) === 0x80) start++;
  }
  // NUL is valid UTF-8 but cuts C strings in some model runtimes; it carries no meaning for a reader anyway.
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(start)).replaceAll('\0', '\uFFFD');
}

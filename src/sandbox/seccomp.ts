// A small classic-BPF seccomp filter for contained runs, handed to `bwrap --seccomp FD` as raw `struct sock_filter`
// records. It refuses what the namespaces leave open: unix sockets (a host socket reached by path — Docker, D-Bus,
// ssh-agent — lets the program behind it act unconfined), io_uring (a second syscall path that filters do not see),
// and the kernel keyring (session keys). Everything else is allowed; a foreign architecture is killed, since its
// syscall numbers mean other things. See docs/decisions/0020-containment.md.

/** One BPF instruction: `struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }`. */
interface Insn {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

const BPF_LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const BPF_JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const BPF_JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const BPF_RET_K = 0x06; // BPF_RET | BPF_K

export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
export const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;

/** Offsets in `struct seccomp_data { int nr; u32 arch; u64 ip; u64 args[6]; }` (little-endian: low word first). */
const OFF_NR = 0;
const OFF_ARCH = 4;
const OFF_ARG0_LOW = 16;

const AF_UNIX = 1;

export interface ArchTable {
  /** AUDIT_ARCH_* as the kernel reports it in seccomp_data.arch. */
  readonly audit: number;
  readonly socket: number;
  /** Syscalls refused outright with EPERM. */
  readonly refused: readonly number[];
  /** Numbers at or above this belong to another ABI on the same arch (x32 on x86_64); refused. */
  readonly abiLimit?: number;
}

/** Syscall numbers from the kernel's tables (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h). */
export const ARCHES: Readonly<Record<string, ArchTable>> = {
  x64: {
    audit: 0xc000003e,
    socket: 41,
    // add_key, request_key, keyctl, io_uring_setup, io_uring_enter, io_uring_register
    refused: [248, 249, 250, 425, 426, 427],
    abiLimit: 0x40000000,
  },
  arm64: {
    audit: 0xc00000b7,
    socket: 198,
    refused: [217, 218, 219, 425, 426, 427],
  },
};

const insn = (code: number, k: number, jt = 0, jf = 0): Insn => ({ code, jt, jf, k });

/** The filter program for one architecture. */
export function filterProgram(arch: ArchTable): Insn[] {
  const errno = (SECCOMP_RET_ERRNO | EPERM) >>> 0;
  const p: Insn[] = [];
  // A filter that reads syscall numbers of the wrong ABI would match the wrong calls: kill such a process instead.
  p.push(insn(BPF_LD_W_ABS, OFF_ARCH));
  p.push(insn(BPF_JEQ_K, arch.audit, 1, 0));
  p.push(insn(BPF_RET_K, SECCOMP_RET_KILL_PROCESS));
  p.push(insn(BPF_LD_W_ABS, OFF_NR));
  if (arch.abiLimit !== undefined) {
    p.push(insn(BPF_JGE_K, arch.abiLimit, 0, 1));
    p.push(insn(BPF_RET_K, errno));
  }
  // Each refused number: equal → fall through to the EPERM return right after it; else skip it.
  for (const nr of arch.refused) {
    p.push(insn(BPF_JEQ_K, nr, 0, 1));
    p.push(insn(BPF_RET_K, errno));
  }
  // socket(AF_UNIX, …): the domain is the low word of args[0]. socketpair stays allowed (it reaches no one).
  p.push(insn(BPF_JEQ_K, arch.socket, 0, 3));
  p.push(insn(BPF_LD_W_ABS, OFF_ARG0_LOW));
  p.push(insn(BPF_JEQ_K, AF_UNIX, 0, 1));
  p.push(insn(BPF_RET_K, errno));
  p.push(insn(BPF_RET_K, SECCOMP_RET_ALLOW));
  return p;
}

/** The program as the bytes bwrap reads from its `--seccomp` file descriptor (host byte order: little-endian). */
export function encodeProgram(program: readonly Insn[]): Buffer {
  const out = Buffer.alloc(program.length * 8);
  program.forEach((i, n) => {
    out.writeUInt16LE(i.code, n * 8);
    out.writeUInt8(i.jt, n * 8 + 2);
    out.writeUInt8(i.jf, n * 8 + 3);
    out.writeUInt32LE(i.k >>> 0, n * 8 + 4);
  });
  return out;
}

/** The encoded filter for this machine, or undefined where wisp has no table (the run is then refused). */
export function seccompFilter(arch: string = process.arch): Buffer | undefined {
  const table = ARCHES[arch];
  return table ? encodeProgram(filterProgram(table)) : undefined;
}

/** Runs the program on one syscall, as the kernel would: for tests and for reading the filter. */
export function evaluate(program: readonly Insn[], data: { nr: number; arch: number; args?: readonly number[] }): number {
  let acc = 0;
  for (let pc = 0; pc < program.length; pc++) {
    const i = program[pc]!;
    switch (i.code) {
      case BPF_LD_W_ABS:
        acc = i.k === OFF_NR ? data.nr : i.k === OFF_ARCH ? data.arch : i.k === OFF_ARG0_LOW ? (data.args?.[0] ?? 0) : NaN;
        if (Number.isNaN(acc)) throw new Error(`load from an unknown offset ${i.k}`);
        break;
      case BPF_JEQ_K:
        pc += acc >>> 0 === i.k >>> 0 ? i.jt : i.jf;
        break;
      case BPF_JGE_K:
        pc += acc >>> 0 >= i.k >>> 0 ? i.jt : i.jf;
        break;
      case BPF_RET_K:
        return i.k >>> 0;
      default:
        throw new Error(`unknown instruction ${i.code}`);
    }
  }
  throw new Error('the program ran off its end');
}

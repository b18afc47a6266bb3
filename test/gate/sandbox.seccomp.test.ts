// The seccomp filter of contained runs, read by a small BPF interpreter (the same semantics as the kernel's for the
// instructions it uses), and its encoding as bwrap reads it.
import { describe, expect, it } from 'vitest';
import {
  ARCHES,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_ERRNO,
  SECCOMP_RET_KILL_PROCESS,
  encodeProgram,
  evaluate,
  filterProgram,
  seccompFilter,
} from '../../src/sandbox/seccomp.js';

const EPERM = (SECCOMP_RET_ERRNO | 1) >>> 0;

describe.each(Object.entries(ARCHES))('the filter on %s', (_name, arch) => {
  const program = filterProgram(arch);
  const run = (nr: number, args: number[] = []) => evaluate(program, { nr, arch: arch.audit, args });

  it('refuses socket(AF_UNIX): a host socket reached by path would act unconfined', () => {
    expect(run(arch.socket, [1])).toBe(EPERM);
  });

  it('allows other socket families (the network namespace has no route anyway)', () => {
    expect(run(arch.socket, [2])).toBe(SECCOMP_RET_ALLOW);
    expect(run(arch.socket, [10])).toBe(SECCOMP_RET_ALLOW);
  });

  it('refuses io_uring_setup/enter/register and the keyring calls', () => {
    for (const nr of arch.refused) expect(run(nr)).toBe(EPERM);
    expect(arch.refused).toEqual(expect.arrayContaining([425, 426, 427]));
  });

  it('allows an ordinary syscall', () => {
    expect(run(0)).toBe(SECCOMP_RET_ALLOW);
    expect(run(1)).toBe(SECCOMP_RET_ALLOW);
  });

  it('kills a process that calls in with another architecture (its numbers mean other syscalls)', () => {
    expect(evaluate(program, { nr: arch.socket, arch: 0x40000003, args: [1] })).toBe(SECCOMP_RET_KILL_PROCESS);
  });

  it('encodes 8 bytes per instruction, little-endian', () => {
    const bytes = encodeProgram(program);
    expect(bytes.length).toBe(program.length * 8);
    expect(bytes.readUInt16LE(0)).toBe(program[0]!.code);
    expect(bytes.readUInt32LE(4)).toBe(program[0]!.k);
  });
});

describe('x32 on x86_64', () => {
  it('refuses syscalls of the x32 ABI (socket through the x32 number would miss the check)', () => {
    const x64 = ARCHES.x64!;
    expect(evaluate(filterProgram(x64), { nr: 0x40000000 + 41, arch: x64.audit, args: [1] })).toBe(EPERM);
  });
});

describe('seccompFilter', () => {
  it('has a filter for this machine, and none for an architecture wisp has no table for', () => {
    expect(seccompFilter()).toBeInstanceOf(Buffer);
    expect(seccompFilter('mips')).toBeUndefined();
  });
});

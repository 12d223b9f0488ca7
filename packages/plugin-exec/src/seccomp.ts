/**
 * A seccomp filter for the sandbox: `connect(2)` fails with EACCES. Without
 * a network namespace there is nothing to reach over IP, but a Unix socket on
 * the read-only file system (a database, a container daemon, this gateway) is
 * still connectable — read-only mounts do not stop `connect`. Everything else
 * is allowed. x86-64 and aarch64 are known; the x32 ABI and any other
 * architecture are refused outright (a filter that checks numbers of the wrong
 * table would let everything through).
 *
 * Classic BPF, assembled here (bwrap takes the program on a file descriptor:
 * `--seccomp FD`); no libseccomp binding is needed for six comparisons.
 */
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;

const ARCH_OFFSET = 4; // struct seccomp_data.arch
const NR_OFFSET = 0; // struct seccomp_data.nr
const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_SYSCALL_BIT = 0x40000000;
const CONNECT = { x86_64: 42, aarch64: 203 } as const;
const RET_ALLOW = 0x7fff0000;
const RET_EACCES = 0x00050000 | 13;
const RET_KILL_PROCESS = 0x80000000;

type Instruction = { code: number; k: number; jt?: string; jf?: string; label?: string };

const PROGRAM: Instruction[] = [
  { code: LD_W_ABS, k: ARCH_OFFSET },
  { code: JEQ_K, k: AUDIT_ARCH_X86_64, jt: 'x86', jf: 'arm' },
  { label: 'x86', code: LD_W_ABS, k: NR_OFFSET },
  { code: JGE_K, k: X32_SYSCALL_BIT, jt: 'kill', jf: 'x86-nr' },
  { label: 'x86-nr', code: JEQ_K, k: CONNECT.x86_64, jt: 'deny', jf: 'allow' },
  { label: 'arm', code: JEQ_K, k: AUDIT_ARCH_AARCH64, jt: 'arm-nr', jf: 'kill' },
  { label: 'arm-nr', code: LD_W_ABS, k: NR_OFFSET },
  { code: JEQ_K, k: CONNECT.aarch64, jt: 'deny', jf: 'allow' },
  { label: 'allow', code: RET_K, k: RET_ALLOW },
  { label: 'deny', code: RET_K, k: RET_EACCES },
  { label: 'kill', code: RET_K, k: RET_KILL_PROCESS },
];

/** The filter as `struct sock_filter[]` bytes (little-endian, as both architectures are). */
export function connectFilter(): Buffer {
  const at = new Map(PROGRAM.flatMap((ins, index) => (ins.label ? [[ins.label, index] as const] : [])));
  const out = Buffer.alloc(PROGRAM.length * 8);
  PROGRAM.forEach((ins, index) => {
    const jump = (label: string | undefined) => (label === undefined ? 0 : at.get(label)! - index - 1);
    out.writeUInt16LE(ins.code, index * 8);
    out.writeUInt8(jump(ins.jt), index * 8 + 2);
    out.writeUInt8(jump(ins.jf), index * 8 + 3);
    out.writeUInt32LE(ins.k >>> 0, index * 8 + 4);
  });
  return out;
}

/**
 * The sandbox's seccomp filter: an allowlist. A system call runs only if it is
 * in the architecture's table (syscalls.ts) and not in DENIED; anything else —
 * a call this table does not know, one a newer kernel added — fails with
 * ENOSYS, as on a kernel without it (programs fall back). The routes to a
 * socket on this machine are closed:
 * - `connect(2)` fails with EACCES (a read-only mount does not stop a connect
 *   to a Unix socket such as a database's, a container daemon's, this gateway's);
 * - `io_uring_*` are refused (`IORING_OP_CONNECT` connects without `connect(2)`);
 * - `socket(2)` only makes IPv4, IPv6 and netlink sockets (all inside the
 *   sandbox's own network namespace): no Unix socket, so no `sendto`/`sendmsg`
 *   to a Unix socket path;
 * - `socketpair(2)` only makes stream and seqpacket pairs: a datagram pair may
 *   `sendto` any Unix socket path (the kernel looks the address up).
 * x86-64 and aarch64 are known; the x32 ABI and any other architecture are
 * killed (a filter that checks numbers of the wrong table would let anything through).
 *
 * Classic BPF, assembled here (bwrap takes the program on a file descriptor:
 * `--seccomp FD`); a balanced tree of `JGE` over the allowed ranges keeps
 * every jump short.
 */
import { AARCH64, X86_64, type SyscallTable } from './syscalls.js';

/** Refused with EPERM: kernel attack surface, routes around the filter, or what needs privileges the sandbox lacks. */
export const DENIED: ReadonlySet<string> = new Set([
  'io_uring_setup',
  'io_uring_enter',
  'io_uring_register',
  'mount',
  'umount2',
  'pivot_root',
  'chroot',
  'move_mount',
  'open_tree',
  'fsopen',
  'fsconfig',
  'fsmount',
  'fspick',
  'mount_setattr',
  'unshare',
  'setns',
  'bpf',
  'perf_event_open',
  'userfaultfd',
  'fanotify_init',
  'kexec_load',
  'kexec_file_load',
  'init_module',
  'finit_module',
  'delete_module',
  'create_module',
  'get_kernel_syms',
  'query_module',
  'reboot',
  'swapon',
  'swapoff',
  'acct',
  'quotactl',
  'quotactl_fd',
  'syslog',
  'nfsservctl',
  'lookup_dcookie',
  'uselib',
  '_sysctl',
  'iopl',
  'ioperm',
  'modify_ldt',
  'vhangup',
  'settimeofday',
  'clock_settime',
  'clock_adjtime',
  'adjtimex',
  'keyctl',
  'add_key',
  'request_key',
  'open_by_handle_at',
  'name_to_handle_at',
  'tuxcall',
  'security',
  'afs_syscall',
  'putpmsg',
  'getpmsg',
  'epoll_ctl_old',
  'epoll_wait_old',
  'vserver',
]);

const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;
const SOCK_STREAM = 1;
const SOCK_SEQPACKET = 5;

const LD_W_ABS = 0x20;
const ALU_AND_K = 0x54;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;

const ARCH_OFFSET = 4; // struct seccomp_data.arch
const NR_OFFSET = 0; // struct seccomp_data.nr
const ARG0_LOW = 16; // struct seccomp_data.args[0], low word (little-endian)
const ARG1_LOW = 24;
const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_SYSCALL_BIT = 0x40000000;

const errno = (n: number) => 0x00050000 | n;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const EPERM = 1;
const EACCES = 13;
const ENOSYS = 38;

/** One BPF instruction; jumps are relative (instructions skipped). */
type Instruction = { code: number; k: number; jt?: number; jf?: number };
type Action = 'allow' | 'deny' | 'unknown' | 'connect' | 'socket' | 'socketpair';

/** The filter as `struct sock_filter[]` bytes (little-endian, as both architectures are). */
export function sandboxFilter(): Buffer {
  const x86 = archBlock(X86_64, true);
  const arm = archBlock(AARCH64, false);
  const program: Instruction[] = [
    { code: LD_W_ABS, k: ARCH_OFFSET },
    { code: JEQ_K, k: AUDIT_ARCH_X86_64, jt: 0, jf: x86.length },
    ...x86,
    { code: JEQ_K, k: AUDIT_ARCH_AARCH64, jt: 0, jf: arm.length },
    ...arm,
    { code: RET_K, k: RET_KILL_PROCESS },
  ];
  const out = Buffer.alloc(program.length * 8);
  program.forEach((ins, index) => {
    out.writeUInt16LE(ins.code, index * 8);
    out.writeUInt8(ins.jt ?? 0, index * 8 + 2);
    out.writeUInt8(ins.jf ?? 0, index * 8 + 3);
    out.writeUInt32LE(ins.k >>> 0, index * 8 + 4);
  });
  return out;
}

/** What the filter does with `name` on x86-64 (tests and the README read it). */
export function syscallAction(name: string): Action {
  return actionOf(name, X86_64.has(name));
}

function actionOf(name: string, known: boolean): Action {
  if (!known) return 'unknown';
  if (name === 'connect' || name === 'socket' || name === 'socketpair') return name;
  return DENIED.has(name) ? 'deny' : 'allow';
}

/** Loads the call number, then decides by a tree over contiguous ranges of the same action. */
function archBlock(table: SyscallTable, x86: boolean): Instruction[] {
  const byNumber = new Map([...table].map(([name, nr]) => [nr, actionOf(name, true)] as const));
  const max = Math.max(...byNumber.keys());
  const ranges: { start: number; action: Action }[] = [];
  for (let nr = 0; nr <= max + 1; nr++) {
    const action = byNumber.get(nr) ?? 'unknown';
    if (ranges[ranges.length - 1]?.action !== action) ranges.push({ start: nr, action });
  }
  const head: Instruction[] = [{ code: LD_W_ABS, k: NR_OFFSET }];
  if (x86) head.push({ code: JGE_K, k: X32_SYSCALL_BIT, jt: 0, jf: 1 }, { code: RET_K, k: RET_KILL_PROCESS });
  return [...head, ...tree(ranges)];
}

/** `ranges` sorted by start, the first starting at 0, the last open-ended. */
function tree(ranges: readonly { start: number; action: Action }[]): Instruction[] {
  if (ranges.length === 1) return leaf(ranges[0]!.action);
  const mid = ranges.length >> 1;
  const left = tree(ranges.slice(0, mid));
  const right = tree(ranges.slice(mid));
  if (left.length > 255) throw new Error('seccomp filter: a jump is too long');
  return [{ code: JGE_K, k: ranges[mid]!.start, jt: left.length, jf: 0 }, ...left, ...right];
}

function leaf(action: Action): Instruction[] {
  switch (action) {
    case 'allow':
      return [{ code: RET_K, k: RET_ALLOW }];
    case 'deny':
      return [{ code: RET_K, k: errno(EPERM) }];
    case 'unknown':
      return [{ code: RET_K, k: errno(ENOSYS) }];
    case 'connect':
      return [{ code: RET_K, k: errno(EACCES) }];
    case 'socket': // domain in { AF_INET, AF_INET6, AF_NETLINK }
      return [
        { code: LD_W_ABS, k: ARG0_LOW },
        { code: JEQ_K, k: AF_INET, jt: 3 },
        { code: JEQ_K, k: AF_INET6, jt: 2 },
        { code: JEQ_K, k: AF_NETLINK, jt: 1 },
        { code: RET_K, k: errno(EACCES) },
        { code: RET_K, k: RET_ALLOW },
      ];
    case 'socketpair': // (type & 0xf) in { SOCK_STREAM, SOCK_SEQPACKET }; SOCK_NONBLOCK/CLOEXEC live above 0xf
      return [
        { code: LD_W_ABS, k: ARG1_LOW },
        { code: ALU_AND_K, k: 0xf },
        { code: JEQ_K, k: SOCK_STREAM, jt: 2 },
        { code: JEQ_K, k: SOCK_SEQPACKET, jt: 1 },
        { code: RET_K, k: errno(EACCES) },
        { code: RET_K, k: RET_ALLOW },
      ];
  }
}

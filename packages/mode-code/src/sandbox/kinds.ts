/** The sandbox backends of code mode, in fallback order. */
export type SandboxKind = 'process' | 'quickjs';
export const SANDBOX_KINDS: readonly SandboxKind[] = ['process', 'quickjs'];

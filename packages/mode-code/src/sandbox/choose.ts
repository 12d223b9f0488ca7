/** The fallback order of the sandbox backends: process → quickjs (the caller falls back to tools mode when neither starts). */
import type { SandboxKind } from './kinds.js';
import { checkQuickJSSupport, checkSandboxSupport } from './support.js';

export type BackendChoice =
  | {
      readonly ok: true;
      readonly kind: SandboxKind /** Why the preferred backend was skipped. */;
      readonly skipped?: string;
    }
  | { readonly ok: false; readonly reason: string };

export async function chooseBackend(preferred: SandboxKind): Promise<BackendChoice> {
  const order: SandboxKind[] = preferred === 'process' ? ['process', 'quickjs'] : ['quickjs'];
  const reasons: string[] = [];
  for (const kind of order) {
    const support = kind === 'process' ? await checkSandboxSupport() : await checkQuickJSSupport();
    if (support.ok) return reasons.length ? { ok: true, kind, skipped: reasons.join('; ') } : { ok: true, kind };
    reasons.push(`${kind}: ${support.reason}`);
  }
  return { ok: false, reason: reasons.join('; ') };
}

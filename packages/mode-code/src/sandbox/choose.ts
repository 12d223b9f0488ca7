/**
 * The fallback order of the sandbox backends, the one the fail-closed rule allows: process (a Node child) → quickjs
 * (an interpreter with no host API) → none, and the caller falls back to tools mode (never to direct exposure).
 */
import { CodeErrors } from '../errors.js';
import { CODE_MODE_PLUGIN } from '../options.js';
import type { SandboxKind } from './kinds.js';
import { checkQuickJSSupport, checkSandboxSupport } from './support.js';

export type BackendChoice =
  | {
      readonly ok: true;
      readonly kind: SandboxKind;
      /** Why the preferred backend was skipped (`<kind>: <reason>`), when it was. */
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

/** The warning that says a run's code runs on a fallback backend, naming the one skipped and why. */
export function fallbackDiagnostic(configured: SandboxKind, choice: BackendChoice & { ok: true }) {
  return {
    code: CodeErrors.SANDBOX_UNAVAILABLE,
    level: 'warning' as const,
    message: `code mode fell back from the ${configured} sandbox to ${choice.kind}: ${choice.skipped}`,
    plugin: CODE_MODE_PLUGIN,
    details: { configured, used: choice.kind, fallback: `${configured} → ${choice.kind}`, reason: choice.skipped },
  };
}

/**
 * `target` and `node` as the Tools document has them: `host` is the browser on this host (the default), `sandbox` a
 * browser inside the session's sandbox, `node` one on a paired node (`node` picks which, and needs target "node").
 * This deployment has neither a sandbox browser nor paired nodes, so those two are refused, saying why, rather than
 * quietly run on the host: a caller that pins a target expects its browser to be there.
 */
import { ToolSearchError } from '@tool-search/kernel';
import { argumentsError } from './act.js';
import { BrowserErrors } from './errors.js';

type Args = Readonly<Record<string, unknown>>;

export function checkTarget(args: Args): void {
  const target = typeof args.target === 'string' ? args.target : undefined;
  const node = typeof args.node === 'string' ? args.node : undefined;
  if (node !== undefined && target !== undefined && target !== 'node')
    throw argumentsError(`node is only used with target "node" (got target "${target}")`);
  if (target === 'node' || node !== undefined)
    throw unavailable(
      'node',
      'no-paired-nodes',
      `no paired node can run the browser${node ? ` (node "${node.slice(0, 80)}" asked)` : ''}: this host has no node network (OpenClaw's companion apps and node hosts); omit target or use target "host"`,
      node,
    );
  if (target === 'sandbox')
    throw unavailable(
      'sandbox',
      'no-sandbox-browser',
      'there is no sandbox browser here: sessions get no sandbox container with a Chromium of their own; the host browser (target "host") is the one there is, itself run confined (its own uid and namespace)',
    );
}

function unavailable(target: string, reason: string, why: string, node?: string): ToolSearchError {
  return new ToolSearchError(BrowserErrors.BROWSER_TARGET_UNAVAILABLE, `browser target "${target}": ${why}`, {
    details: { target, reason, ...(node !== undefined ? { node: node.slice(0, 80) } : {}) },
  });
}

/**
 * `GET /v1/health` as a gateway route: which replica answered and whether its
 * state store answers (a balancer's health check). 200 when the store answers,
 * 503 when it does not; the gateway keeps serving read-only requests either way.
 */
import type { StateStore } from '@tool-search/state';
import type { GatewayRoute } from './approvals-http.js';

export interface HealthReport {
  readonly replica: string;
  readonly state: { readonly kind: StateStore['kind']; readonly ok: boolean };
}

export function healthRoute(state: StateStore): GatewayRoute {
  return async (req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://gateway').pathname !== '/v1/health') return false;
    const ok = await state.ping().catch(() => false);
    const report: HealthReport = { replica: state.replicaId, state: { kind: state.kind, ok } };
    const text = JSON.stringify(report);
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
    return true;
  };
}

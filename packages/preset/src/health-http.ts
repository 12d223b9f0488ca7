/**
 * `GET /v1/health` as a gateway route: which replica answered and whether its
 * state store answers (a balancer's health check). 200 when the store answers,
 * 503 when it does not; the gateway keeps serving read-only requests either way.
 */
import { stateHealth, type StateStore } from '@tool-search/state';
import type { GatewayRoute } from './approvals-http.js';

export function healthRoute(state: StateStore): GatewayRoute {
  return async (req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://gateway').pathname !== '/v1/health') return false;
    const report = await stateHealth(state);
    const text = JSON.stringify(report);
    res.writeHead(report.state.ok ? 200 : 503, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
    return true;
  };
}

/**
 * OpenClaw's rule for gateway-backed tools (`gatewayUrl`, default `ws://127.0.0.1:18789`; `gatewayToken`): an explicit
 * URL needs an explicit token (never one from the config or the environment). This cron runs inside the gateway
 * serving the call, so a URL naming that gateway (its port, and its bound host, or loopback / a local address when it
 * listens on loopback or every interface) acts on it, the call already being authenticated there; a URL naming
 * another gateway is refused clearly: there is no cron RPC between gateways here.
 */
import { networkInterfaces } from 'node:os';
import { ToolSearchError, type ExecuteContext } from '@tool-search/kernel';
import { CronErrors } from './errors.js';

/** Where the gateway serving a run listens (`@tool-search/gateway` sets `gatewayAddress` on every run it serves). */
interface GatewayAddress {
  readonly host: string;
  readonly port: number;
}

export function checkGatewayTarget(args: Record<string, unknown>, ctx: ExecuteContext): void {
  if (args.gatewayUrl === undefined) return;
  const url = String(args.gatewayUrl);
  if (typeof args.gatewayToken !== 'string' || !args.gatewayToken) {
    throw new ToolSearchError(
      CronErrors.CRON_GATEWAY_TOKEN_REQUIRED,
      'gatewayUrl was given without gatewayToken: an explicit gateway URL needs an explicit token',
      { details: { gatewayUrl: url, rule: 'gatewayUrl requires gatewayToken' } },
    );
  }
  const serving = (ctx.run.request as { gatewayAddress?: GatewayAddress }).gatewayAddress;
  if (serving && namesGateway(url, serving)) return;
  throw new ToolSearchError(
    CronErrors.CRON_GATEWAY_REMOTE_UNSUPPORTED,
    `cron runs inside the gateway serving this call${serving ? ` (port ${serving.port})` : ''}; ${url} names another gateway, which cannot be reached from here (no cron RPC between gateways): leave gatewayUrl out, or name this one`,
    { details: { gatewayUrl: url, ...(serving ? { servingPort: serving.port } : {}) } },
  );
}

/** Whether `url` reaches the gateway listening at `address` (plain ws/http: the gateway speaks no TLS). */
export function namesGateway(url: string, address: GatewayAddress): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'http:') return false;
  if (Number(parsed.port || 80) !== address.port) return false;
  const host = bare(parsed.hostname);
  const bound = bare(address.host);
  if (host === bound) return true;
  if (isLoopback(bound)) return host === 'localhost';
  if (!WILDCARDS.has(bound)) return false;
  return host === 'localhost' || isLoopback(host) || localAddresses().has(host);
}

const WILDCARDS = new Set(['0.0.0.0', '::']);

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

function isLoopback(host: string): boolean {
  return host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function localAddresses(): Set<string> {
  return new Set(
    Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => bare(entry.address))),
  );
}

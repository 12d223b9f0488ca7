/**
 * The address a kernel's gateway listens on, so every run of that kernel (HTTP turns and session turns alike, see
 * `turn.ts`) carries `gatewayAddress`: OpenClaw's gateway-backed tools (cron) accept a `gatewayUrl` naming the gateway
 * serving the call (its documented default is `ws://127.0.0.1:18789`).
 */
import type { Kernel } from '@tool-search/kernel';

/** Where the gateway serving a run listens: its bound host (`0.0.0.0` / `::` for every interface) and port; plain HTTP. */
export interface GatewayAddress {
  readonly host: string;
  readonly port: number;
}

declare module '@tool-search/kernel' {
  interface RunRequest {
    /** The gateway serving this run (set by the gateway on every run of its kernel). */
    readonly gatewayAddress?: GatewayAddress;
  }
}

const addresses = new WeakMap<Kernel, GatewayAddress>();

/** Records where `kernel`'s gateway listens; the returned function forgets it (when the server closes). */
export function recordGatewayAddress(kernel: Kernel, address: GatewayAddress): () => void {
  addresses.set(kernel, address);
  return () => {
    if (addresses.get(kernel) === address) addresses.delete(kernel);
  };
}

export function gatewayAddressOf(kernel: Kernel): GatewayAddress | undefined {
  return addresses.get(kernel);
}

/**
 * What the replica tests need on this machine: the built CLI (they start it as real processes) and, for shared
 * state, a redis-server to start. Each missing piece is printed as the reason the tests skip.
 */
import { redisServerAvailable } from '@tool-search/testing';
import { cliBuilt } from '../src/gateway-replicas.js';

/**
 * How long a replica may take to print its endpoint, and the budget of a hook or test that starts replicas. A `tool-search`
 * start is about a second of CPU; on a 2-core machine running the whole suite (other test files at once, other
 * engineers' runs) that has taken over 30 s, the harness's default. Generous on purpose: a start that fails still
 * fails at once (the process exits), only a slow one waits.
 */
export const REPLICA_START_MS = 120_000;
export const REPLICA_BUDGET_MS = 300_000;

export function replicaPrerequisites(
  what: string,
  needs: { readonly redis?: boolean } = { redis: true },
): { readonly built: boolean; readonly redis: boolean } {
  const built = cliBuilt();
  const redis = !needs.redis || redisServerAvailable();
  if (!built) console.warn(`skipping ${what}: packages/cli/dist/bin.js is missing (run npm run build)`);
  if (!redis) console.warn(`skipping ${what}: redis-server is not installed (apt-get install -y redis-server)`);
  return { built, redis };
}

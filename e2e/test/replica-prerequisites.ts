/**
 * What the replica tests need on this machine: the built CLI (they start it as real processes) and, for shared
 * state, a redis-server to start. Each missing piece is printed as the reason the tests skip.
 */
import { redisServerAvailable } from '@tool-search/testing';
import { cliBuilt } from '../src/gateway-replicas.js';

export function replicaPrerequisites(what: string, needs: { readonly redis?: boolean } = { redis: true }): { readonly built: boolean; readonly redis: boolean } {
  const built = cliBuilt();
  const redis = !needs.redis || redisServerAvailable();
  if (!built) console.warn(`skipping ${what}: packages/cli/dist/bin.js is missing (run npm run build)`);
  if (!redis) console.warn(`skipping ${what}: redis-server is not installed (apt-get install -y redis-server)`);
  return { built, redis };
}

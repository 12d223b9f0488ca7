import { describe, expect, it } from 'vitest';
import { startReplica, startRoundRobin } from '../src/replicas.js';
import { REPLICA_BUDGET_MS, REPLICA_START_MS } from './replica-prerequisites.js';

describe('the replica harness', () => {
  it(
    'starts real gateway processes and alternates requests between them, skipping one that died',
    async () => {
      const a = await startReplica({
        id: 'a',
        args: ['gateway', '--provider-mode', 'mock-openai'],
        startTimeoutMs: REPLICA_START_MS,
      });
      const b = await startReplica({
        id: 'b',
        args: ['gateway', '--provider-mode', 'mock-openai'],
        startTimeoutMs: REPLICA_START_MS,
      });
      const balancer = await startRoundRobin([a.origin, b.origin]);
      try {
        for (let i = 0; i < 4; i++) expect((await fetch(`${balancer.url}/v1/models`)).status).toBe(200);
        expect(balancer.routed).toEqual([0, 1, 0, 1]);
        await a.stop('SIGKILL');
        balancer.remove(0);
        expect((await fetch(`${balancer.url}/v1/models`)).status).toBe(200);
        expect(balancer.routed.at(-1)).toBe(1);
      } finally {
        await balancer.close();
        await Promise.all([a.stop(), b.stop()]);
      }
    },
    REPLICA_BUDGET_MS,
  );
});

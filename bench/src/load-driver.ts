/**
 * The one load loop of the load benchmarks (mode-load.ts, replica-load.ts): `sessions` concurrent sessions, each
 * sending its `turns` one after another; per turn its latency and, when it failed, why; the wall time and this
 * process's CPU time (every thread) over the whole load.
 */
import { median, msSince, percentile, round } from './stats.js';

export interface SessionLoad {
  readonly sessions: number;
  /** Turns per session, sent one after another. */
  readonly turns: number;
}

export interface LoadSample {
  readonly latencies: readonly number[];
  /** One entry per failed turn: why it failed. */
  readonly failures: readonly string[];
  readonly seconds: number;
  readonly cpuMs: number;
}

/** One turn of one session: `undefined` when it did its job, else why not. A throw is a failure named by its class. */
export type Turn = (session: number, index: number) => Promise<string | undefined>;

export async function driveSessions(load: SessionLoad, turn: Turn): Promise<LoadSample> {
  const latencies: number[] = [];
  const failures: string[] = [];
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: load.sessions }, async (_, session) => {
      for (let index = 0; index < load.turns; index++) {
        const start = process.hrtime.bigint();
        const failure = await turn(session, index).catch((error: unknown) =>
          error instanceof Error ? error.constructor.name : 'error',
        );
        latencies.push(msSince(start));
        if (failure !== undefined) failures.push(failure);
      }
    }),
  );
  const seconds = msSince(started) / 1000;
  const used = process.cpuUsage(cpu);
  return { latencies, failures, seconds, cpuMs: (used.user + used.system) / 1000 };
}

export interface TurnStats {
  readonly turns: number;
  readonly errors: number;
  readonly turnsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** Throughput and latency of one or more samples of the same setup (summed). */
export function turnStats(samples: readonly LoadSample[]): TurnStats {
  const latencies = samples.flatMap((sample) => sample.latencies);
  const seconds = samples.reduce((total, sample) => total + sample.seconds, 0);
  return {
    turns: latencies.length,
    errors: samples.reduce((total, sample) => total + sample.failures.length, 0),
    turnsPerSecond: round(latencies.length / seconds, 1),
    p50Ms: round(median(latencies), 1),
    p99Ms: round(percentile(latencies, 99), 1),
  };
}

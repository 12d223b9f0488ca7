/** The machine a bench ran on: numbers from a shared, noisy box mean little without it. */
import os from 'node:os';

export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly platform: string;
  readonly node: string;
  readonly date: string;
  readonly loadAverage: readonly number[];
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    date: new Date().toISOString(),
    loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100),
  };
}

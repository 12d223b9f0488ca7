/**
 * OpenTelemetry export for a serving command: with `telemetry.otlp` in the
 * config, traces and metrics go to that collector over OTLP/HTTP with this
 * replica's id as `service.instance.id`. Started before the kernel (the
 * telemetry plugin takes the global providers when it is built) and shut down
 * last, so the final spans and metrics are flushed. The SDK loads only here.
 */
import type { ToolSearchConfig } from '@tool-search/config';

export interface CliOtel {
  shutdown(): Promise<void>;
}

export async function startCliOtel(config: ToolSearchConfig, replicaId: string): Promise<CliOtel> {
  const otlp = config.telemetry?.otlp;
  if (!otlp) return { shutdown: async () => undefined };
  const { startOtlpExport } = await import('@tool-search/otel-export');
  return startOtlpExport(otlp, { replicaId, serviceVersion: '0.1.0' });
}

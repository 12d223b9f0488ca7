/**
 * The schema of `tools.loopDetection`, apart from the plugin so the config package checks a file with this very schema
 * without loading the plugin (one copy: config and plugin cannot drift).
 */
import type { JsonSchema } from '@tool-search/kernel';

const threshold = { type: 'integer', minimum: 1, maximum: 10_000 } as const;

/** JSON Schema of `tools.loopDetection` (and of each `agents.list[].tools.loopDetection`). */
export const loopDetectionConfigSchema: JsonSchema = Object.freeze({
  type: 'object',
  additionalProperties: false,
  properties: {
    enabled: { type: 'boolean' },
    warningThreshold: threshold,
    criticalThreshold: threshold,
    globalCircuitBreakerThreshold: threshold,
    historySize: threshold,
    detectors: {
      type: 'object',
      additionalProperties: false,
      properties: {
        genericRepeat: { type: 'boolean' },
        knownPollNoProgress: { type: 'boolean' },
        pingPong: { type: 'boolean' },
      },
    },
  },
});

/**
 * The schema of `tools.approvals`, apart from the plugin so the config package checks a file with this very schema
 * without loading the plugin (one copy: config and plugin cannot drift).
 */
import type { JsonSchema } from '@tool-search/kernel';

/** JSON Schema of `tools.approvals`. */
export const approvalsConfigSchema: JsonSchema = Object.freeze({
  type: 'object',
  additionalProperties: false,
  properties: {
    require: { type: 'array', items: { type: 'string', minLength: 1 } },
    timeoutMs: { type: 'integer', minimum: 1, maximum: 86_400_000 },
    requireDestructive: { type: 'boolean' },
  },
});

/**
 * The `native` exposure (`tools.toolSearch.mode: "native"`): every searchable
 * catalog tool is exposed with its full schema, for the provider to hold as a
 * deferred tool (Anthropic `defer_loading: true`), plus `tool_search`, whose
 * hits the gateway returns as `tool_reference` blocks so the provider loads
 * them. The kernel appends the `direct-only` tools, which stay loaded.
 * Calls come back by tool name through the run (policy, approvals, loop
 * detection, telemetry). An upstream without deferred loading gets `tools`
 * instead: the gateway, which knows the upstream, makes that choice.
 */
import { ConfigError, ErrorCode, directTool, type KernelPlugin } from '@tool-search/kernel';
import { CONTROL_TOOL_NAMES, controlToolsFor } from '@tool-search/control-tools';

export const NATIVE_MODE_PLUGIN = '@tool-search/mode-native';

export const NATIVE_MODE_SYSTEM = `Most tools are deferred: search with ${CONTROL_TOOL_NAMES.search} using a few words on what you need; the tools it finds are loaded and can be called by name.`;

export interface NativeModeOptions {
  /** Hits per query when the model gives no `limit` (config `tools.toolSearch.searchDefaultLimit`). Default 5. */
  readonly searchDefaultLimit?: number;
  /** Upper bound on `limit` (config `tools.toolSearch.maxSearchLimit`). Default 20. */
  readonly maxSearchLimit?: number;
}

export function nativeModePlugin(options: NativeModeOptions = {}): KernelPlugin {
  const maxSearchLimit = positiveInteger(options.maxSearchLimit, 'maxSearchLimit') ?? 20;
  const searchDefaultLimit =
    positiveInteger(options.searchDefaultLimit, 'searchDefaultLimit') ?? Math.min(5, maxSearchLimit);
  if (searchDefaultLimit > maxSearchLimit)
    throw invalid(
      '/searchDefaultLimit',
      'maximum',
      `searchDefaultLimit (${searchDefaultLimit}) must not exceed maxSearchLimit (${maxSearchLimit})`,
    );
  const controls = controlToolsFor({ searchDefaultLimit, maxSearchLimit, callHint: 'Call it by its name.' });
  return {
    name: NATIVE_MODE_PLUGIN,
    apply({ hooks }) {
      hooks.materialize.for('native').tap((draft, ctx) => {
        draft.tools.push(...controls(ctx.run.info.request).filter((tool) => tool.name === CONTROL_TOOL_NAMES.search));
        draft.tools.push(...ctx.searchable.map(directTool));
        draft.system.push(NATIVE_MODE_SYSTEM);
        return draft;
      });
    },
  };
}

function positiveInteger(value: unknown, key: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw invalid(`/${key}`, 'type', `${key} must be a positive integer, got ${JSON.stringify(value)}`);
  return value;
}

function invalid(path: string, rule: string, message: string): ConfigError {
  return new ConfigError(path, rule, `${NATIVE_MODE_PLUGIN} options: ${message}`, {
    code: ErrorCode.OPTIONS_INVALID,
    plugin: NATIVE_MODE_PLUGIN,
  });
}

/**
 * `clientToolsPlugin`: the tools the client of a run provides
 * (`kernel.createRun({ clientTools })`) as a tool source. Taps `listTools` and
 * adds them with source `client`, owner `client` (id `client:client:<name>`).
 * A tool with an `execute` (its own, or the plugin's) runs; one without is
 * handed back by the kernel as `{ status: 'pending' }` for the client to run.
 */
import {
  ConfigError,
  ErrorCode,
  ToolSearchError,
  type CatalogMode,
  type ExecuteContext,
  type KernelPlugin,
  type ToolResult,
  errorMessage,
} from '@tool-search/kernel';
import { normalizeClientTool, type ClientToolInput } from './normalize.js';
import { ClientToolsErrors } from './errors.js';

declare module '@tool-search/kernel' {
  interface RunRequest {
    /** Tools the client provides for this run (OpenAI function format or `{ name, description, parameters }`). */
    readonly clientTools?: readonly ClientToolInput[];
  }
}

export const CLIENT_TOOLS_PLUGIN_NAME = '@tool-search/plugin-client-tools';

/** Runs a client tool by name when the tool itself has no `execute`. */
export type ClientToolsExecutor = (
  name: string,
  args: Record<string, unknown>,
  ctx: ExecuteContext,
) => Promise<ToolResult> | ToolResult;

export interface ClientToolsPluginOptions {
  /** Fallback executor for client tools without their own `execute`. Without either, calls come back `pending`. */
  readonly execute?: ClientToolsExecutor;
  /** `catalog` (default): found through search like any tool. `direct-only`: always visible, never searched. */
  readonly catalogMode?: CatalogMode;
}

export function clientToolsPlugin(options: ClientToolsPluginOptions = {}): KernelPlugin {
  checkOptions(options);
  const fallback = options.execute;
  return {
    name: CLIENT_TOOLS_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink, ctx) => {
        const inputs: unknown = ctx.run.request.clientTools;
        if (inputs === undefined) return;
        if (!Array.isArray(inputs)) {
          sink.diagnostic({
            code: ClientToolsErrors.CLIENT_TOOL_INVALID,
            level: 'error',
            message: 'clientTools must be an array; no client tool was added',
          });
          return;
        }
        const seen = new Set<string>();
        inputs.forEach((input: unknown, index: number) => {
          try {
            const tool = normalizeClientTool(input, index);
            if (seen.has(tool.name)) {
              throw new ToolSearchError(
                ClientToolsErrors.CLIENT_TOOL_INVALID,
                `Client tool name "${tool.name}" is used twice; the later one was dropped`,
                {
                  details: { path: `clientTools[${index}].name`, rule: 'unique', name: tool.name },
                },
              );
            }
            seen.add(tool.name);
            const execute =
              tool.execute ??
              (fallback
                ? (args: Record<string, unknown>, ctx: ExecuteContext) => fallback(tool.name, args, ctx)
                : undefined);
            sink.add({
              name: tool.name,
              source: 'client',
              owner: 'client',
              description: tool.description,
              inputSchema: tool.inputSchema,
              ...((tool.catalogMode ?? options.catalogMode)
                ? { catalogMode: tool.catalogMode ?? options.catalogMode }
                : {}),
              ...(execute ? { execute } : {}),
            });
          } catch (error) {
            // A malformed client tool is dropped with a diagnostic, like a tool with a bad schema; its siblings stay.
            const coded = ToolSearchError.isInstance(error) ? error : undefined;
            sink.diagnostic({
              code: ClientToolsErrors.CLIENT_TOOL_INVALID,
              level: 'error',
              message: errorMessage(error),
              ...(coded?.details ? { details: coded.details } : {}),
            });
          }
        });
      });
    },
  };
}

function checkOptions(options: ClientToolsPluginOptions): void {
  const fail = (path: string, rule: string, why: string) =>
    new ConfigError(path, rule, `@tool-search/plugin-client-tools options are invalid at ${path}: ${why}`, {
      code: ErrorCode.OPTIONS_INVALID,
      plugin: CLIENT_TOOLS_PLUGIN_NAME,
    });
  if (typeof options !== 'object' || options === null) throw fail('(root)', 'type', 'options must be an object');
  if (options.execute !== undefined && typeof options.execute !== 'function')
    throw fail('execute', 'type', 'execute must be a function');
  if (options.catalogMode !== undefined && options.catalogMode !== 'catalog' && options.catalogMode !== 'direct-only') {
    throw fail('catalogMode', 'enum', 'catalogMode must be "catalog" or "direct-only"');
  }
}

/**
 * `codeModePlugin`: taps `materialize.for('code')` and pushes the one control
 * tool `tool_search_code` plus its system text (direct-only tools are added by
 * the kernel). The sandbox backend is chosen once per exposure in the fallback
 * order process → quickjs, with a diagnostic when the configured one cannot
 * start; when neither can, it asks the kernel to fall back to `tools` mode —
 * never to direct exposure. Taps `shutdown` to drain the warm pool and wait
 * for the sandboxes of finished runs to exit.
 */
import { type ControlContext, type ExposedTool, type KernelPlugin, type ToolResult } from '@tool-search/kernel';
import { CODE_MODE_SYSTEM, CODE_TOOL_DESCRIPTION, CODE_TOOL_INPUT_SCHEMA, CODE_TOOL_NAME } from './contract.js';
import { createGate } from './gate.js';
import { CODE_MODE_PLUGIN, resolveOptions, type CodeModeOptions, type ResolvedOptions } from './options.js';
import type { CodeResult } from './result.js';
import { runCodeWith, sandboxesExited, spawnOptions, type RunEnvironment } from './run-code.js';
import { createSandboxPool, type SandboxPool } from './sandbox/pool.js';
import { chooseBackend, fallbackDiagnostic } from './sandbox/choose.js';
import { prepareIndex } from '@tool-search/search';

declare module '@tool-search/kernel' {
  interface RunRequest {
    /** The operator's extension of the search tool's description for this run (an agent's `toolSearch.description`); the mode's own when absent. */
    readonly searchDescription?: string;
  }
}

export function codeModePlugin(options: CodeModeOptions = {}): KernelPlugin {
  const resolved = resolveOptions(options);
  const gate = createGate(resolved.maxConcurrent);
  let pool: SandboxPool | undefined;
  let closed = false;

  const warmPool = (): SandboxPool | undefined => {
    if (resolved.warmPool === 0 || closed) return undefined;
    pool ??= createSandboxPool(resolved.warmPool, spawnOptions(resolved));
    return pool;
  };

  return {
    name: CODE_MODE_PLUGIN,
    apply({ hooks }) {
      hooks.materialize.for('code').tapPromise(async (draft, ctx) => {
        // The catalog is known: build its search index now, off the first search's path.
        prepareIndex(ctx.run);
        const backend = await chooseBackend(resolved.sandbox);
        if (!backend.ok) {
          draft.fallback = {
            mode: 'tools',
            reason: `code mode needs a sandbox and none can start here (${backend.reason})`,
          };
          return draft;
        }
        // Not silent: the run's diagnostics (and `exposure`, `tools explain`) say the code runs on the fallback, and why.
        if (backend.skipped) ctx.diagnostic(fallbackDiagnostic(resolved.sandbox, backend));
        const effective: ResolvedOptions = { ...resolved, sandbox: backend.kind };
        // Start the warm children now, so the first call finds them ready (the QuickJS backend needs none).
        const env = (): RunEnvironment => {
          const warm = backend.kind === 'process' ? warmPool() : undefined;
          return warm ? { gate, pool: warm } : { gate };
        };
        env();
        const asked = ctx.run.info.request.searchDescription;
        draft.tools.push(
          codeTool(effective, env, codeToolDescription(typeof asked === 'string' ? asked : resolved.description)),
        );
        draft.system.push(CODE_MODE_SYSTEM);
        return draft;
      });
      hooks.shutdown.tapPromise(async () => {
        closed = true;
        await Promise.all([pool?.drain(), sandboxesExited()]);
      });
    },
  };
}

/** `tool_search_code`'s description with the operator's extension after a blank line (blank adds nothing). */
export function codeToolDescription(extension: string | undefined): string {
  const extra = extension?.trim();
  return extra ? `${CODE_TOOL_DESCRIPTION}\n\n${extra}` : CODE_TOOL_DESCRIPTION;
}

function codeTool(options: ResolvedOptions, env: () => RunEnvironment, description: string): ExposedTool {
  return {
    name: CODE_TOOL_NAME,
    description,
    inputSchema: CODE_TOOL_INPUT_SCHEMA,
    async handler(args: Record<string, unknown>, ctx: ControlContext): Promise<ToolResult> {
      const result = await runCodeWith(
        ctx.run,
        typeof args.code === 'string' ? args.code : '',
        options,
        ctx.signal,
        env(),
      );
      return toToolResult(result);
    },
  };
}

/** The result as a tool result: the JSON text for the model, the object as structured content. */
export function toToolResult(result: CodeResult): ToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(result) }],
    structuredContent: result,
    ...(result.ok ? {} : { isError: true }),
  };
}

/**
 * `codeModePlugin`: taps `materialize.for('code')` and pushes the one control
 * tool `tool_search_code` plus its system text (direct-only tools are added by
 * the kernel). When this runtime cannot start an isolated child, it asks the
 * kernel to fall back to `tools` mode instead — never to direct exposure.
 * Taps `shutdown` to drain the warm pool.
 */
import type { ControlContext, ExposedTool, KernelPlugin, ToolResult } from '@tool-search/kernel';
import { CODE_MODE_SYSTEM, CODE_TOOL_DESCRIPTION, CODE_TOOL_INPUT_SCHEMA, CODE_TOOL_NAME } from './contract.js';
import { CODE_MODE_PLUGIN, resolveOptions, type CodeModeOptions, type ResolvedOptions } from './options.js';
import type { CodeResult } from './result.js';
import { maxLineBytes, runCodeWith } from './run-code.js';
import { createSandboxPool, type SandboxPool } from './sandbox/pool.js';
import { checkSandboxSupport } from './sandbox/support.js';

export function codeModePlugin(options: CodeModeOptions = {}): KernelPlugin {
  const resolved = resolveOptions(options);
  let pool: SandboxPool | undefined;
  let closed = false;

  const warmPool = (): SandboxPool | undefined => {
    if (resolved.warmPool === 0 || closed) return undefined;
    pool ??= createSandboxPool(resolved.warmPool, {
      memoryMb: resolved.limits.memoryMb,
      maxLineBytes: maxLineBytes(resolved),
      ...(resolved.onSpawn ? { onSpawn: resolved.onSpawn } : {}),
    });
    return pool;
  };

  return {
    name: CODE_MODE_PLUGIN,
    apply({ hooks }) {
      hooks.materialize.for('code').tapPromise(async (draft) => {
        const support = await checkSandboxSupport();
        if (!support.ok) {
          draft.fallback = { mode: 'tools', reason: `code mode needs an isolated sandbox process: ${support.reason}` };
          return draft;
        }
        // Start the warm children now, so the first call finds them ready.
        warmPool();
        draft.tools.push(codeTool(resolved, warmPool));
        draft.system.push(CODE_MODE_SYSTEM);
        return draft;
      });
      hooks.shutdown.tapPromise(async () => {
        closed = true;
        await pool?.drain();
      });
    },
  };
}

function codeTool(options: ResolvedOptions, pool: () => SandboxPool | undefined): ExposedTool {
  return {
    name: CODE_TOOL_NAME,
    description: CODE_TOOL_DESCRIPTION,
    inputSchema: CODE_TOOL_INPUT_SCHEMA,
    async handler(args: Record<string, unknown>, ctx: ControlContext): Promise<ToolResult> {
      const result = await runCodeWith(ctx.run, typeof args.code === 'string' ? args.code : '', options, ctx.signal, pool());
      return toToolResult(result);
    },
  };
}

/** The result as a tool result: the JSON text for the model, the object as structured content. */
export function toToolResult(result: CodeResult): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result, ...(result.ok ? {} : { isError: true }) };
}

/**
 * The kernel: registers plugins (checking names and dependencies), seals on
 * the first run, and is the only caller of its hooks. Sources, policy, modes
 * and telemetry are all plugins; the kernel owns the invariants between them.
 */
import { randomUUID } from 'node:crypto';
import { buildCatalog, isolateSources, ListingSink } from './catalog.js';
import { directModePlugin } from './builtins/direct-mode.js';
import { guardCallTaps, guardMaterializeTaps, guardObserverTaps } from './builtins/guards.js';
import { ErrorCode, ToolSearchError } from './errors.js';
import { applyPolicy, guardPolicyTaps } from './filter.js';
import { resolveGuidance } from './guidance.js';
import { createKernelHooks, type KernelHooks } from './hooks.js';
import {
  createHookFacades,
  scopeLogger,
  silentLogger,
  type KernelPlugin,
  type Logger,
  type PluginCommands,
} from './plugin.js';
import { byNamePrecedence, createRunObject, type Run } from './run.js';
import type { RunOptions } from './client-calls.js';
import type { Diagnostic, RunInfo, RunRequest, ToolDescriptor } from './types.js';

export interface KernelOptions {
  /** Plugins to register, in order (same as calling `use` for each). */
  readonly plugins?: readonly KernelPlugin[];
  /** How long a source may take in `listTools` before it is isolated. Default 10000 ms. */
  readonly sourceTimeoutMs?: number;
  readonly logger?: Logger;
}

export interface Kernel {
  use(plugin: KernelPlugin): Kernel;
  /** Lists, validates and filters the catalog for one run. Seals the kernel. */
  createRun(request?: RunRequest, options?: RunOptions): Promise<Run>;
  readonly plugins: readonly string[];
  /** CLI subcommands contributed by registered plugins. */
  readonly commands: readonly PluginCommands[];
  readonly sealed: boolean;
  /** Closes open runs and lets plugins release processes (`shutdown`). */
  close(): Promise<void>;
}

export function createKernel(options: KernelOptions = {}): Kernel {
  const hooks: KernelHooks = createKernelHooks();
  const logger = options.logger ?? silentLogger;
  const sourceTimeoutMs = options.sourceTimeoutMs ?? 10_000;
  const registered: string[] = [];
  const commands: PluginCommands[] = [];
  const openRuns = new Set<Run>();
  let sealed = false;

  isolateSources(hooks, () => sourceTimeoutMs);
  guardPolicyTaps(hooks);
  guardCallTaps(hooks);
  guardMaterializeTaps(hooks);
  guardObserverTaps(hooks);

  const kernel: Kernel = {
    use(plugin) {
      if (sealed)
        throw new ToolSearchError(
          ErrorCode.KERNEL_SEALED,
          `Cannot register "${plugin?.name}": the kernel is sealed after its first run; create a new kernel`,
        );
      if (!plugin || typeof plugin.name !== 'string' || !plugin.name || typeof plugin.apply !== 'function') {
        throw new ToolSearchError(
          ErrorCode.PLUGIN_INVALID,
          'A plugin needs a non-empty `name` and an `apply(api)` function',
        );
      }
      if (registered.includes(plugin.name)) {
        throw new ToolSearchError(ErrorCode.PLUGIN_DUPLICATE, `Plugin "${plugin.name}" is already registered`, {
          plugin: plugin.name,
        });
      }
      const missing = (plugin.dependsOn ?? []).filter((dependency) => !registered.includes(dependency));
      if (missing.length) {
        throw new ToolSearchError(
          ErrorCode.PLUGIN_DEPENDENCY_MISSING,
          `Plugin "${plugin.name}" depends on ${missing.map((m) => `"${m}"`).join(', ')}, which is not registered; register it first`,
          { plugin: plugin.name, details: { missing } },
        );
      }
      plugin.apply({
        name: plugin.name,
        hooks: createHookFacades(hooks, plugin.name),
        logger: scopeLogger(logger, plugin.name),
      });
      registered.push(plugin.name);
      if (plugin.commands) commands.push(plugin.commands);
      return kernel;
    },

    async createRun(request = {}, runOptions = {}) {
      sealed = true;
      const info: RunInfo = Object.freeze({
        runId: randomUUID(),
        sessionId: request.sessionId ?? randomUUID(),
        request: Object.freeze({ ...request }),
      });
      const diagnostics: Diagnostic[] = [];
      const sink = new ListingSink();
      const listing = new AbortController();
      await hooks.listTools.promise(sink, { run: info, signal: listing.signal });
      listing.abort();
      diagnostics.push(...sink.diagnostics);
      const entries = buildCatalog(sink.definitions, diagnostics);
      const listed = entries.map((entry) => entry.descriptor);
      checkNames(listed, diagnostics);
      const { effective, steps } = applyPolicy(hooks, Object.freeze(listed), info, diagnostics);
      const guidance = resolveGuidance(sink.guidanceEntries, effective);
      const run = createRunObject({
        hooks,
        info,
        entries,
        effective,
        steps,
        diagnostics,
        guidance,
        options: runOptions,
        onClose: () => openRuns.delete(run),
      });
      openRuns.add(run);
      if (hooks.runStart.isUsed()) hooks.runStart.call(info, run.catalog);
      return run;
    },

    get plugins() {
      return [...registered];
    },
    get commands() {
      return [...commands];
    },
    get sealed() {
      return sealed;
    },

    async close() {
      await Promise.all([...openRuns].map((run) => run.close()));
      if (hooks.shutdown.isUsed()) await hooks.shutdown.promise();
    },
  };

  kernel.use(directModePlugin());
  for (const plugin of options.plugins ?? []) kernel.use(plugin);
  return kernel;
}

/**
 * Same name from different sources: lookups by name resolve by source
 * precedence (core, plugin, mcp, client), with a warning. A client tool that
 * collides with a catalog tool refuses the run: the client would call one and
 * get the other.
 */
function checkNames(listed: readonly ToolDescriptor[], diagnostics: Diagnostic[]): void {
  const byName = new Map<string, ToolDescriptor[]>();
  for (const tool of listed) byName.set(tool.name, [...(byName.get(tool.name) ?? []), tool]);
  for (const [name, tools] of byName) {
    if (tools.length < 2) continue;
    const client = tools.find((t) => t.source === 'client');
    const other = tools.find((t) => t.source !== 'client');
    if (client && other) {
      throw new ToolSearchError(
        ErrorCode.CLIENT_TOOL_COLLISION,
        `Client tool "${name}" (${client.id}) collides with catalog tool ${other.id}; rename the client tool`,
        { toolId: client.id, details: { clientTool: client.id, catalogTool: other.id } },
      );
    }
    const [winner, ...shadowed] = [...tools].sort(byNamePrecedence);
    diagnostics.push({
      code: ErrorCode.TOOL_NAME_SHADOWED,
      level: 'warning',
      message: `Tool name "${name}" is used by ${tools.map((t) => t.id).join(', ')}; the name resolves to ${winner!.id} (source precedence core, plugin, mcp, client); call the others by id`,
      toolId: winner!.id,
      details: { name, winner: winner!.id, shadowed: shadowed.map((t) => t.id) },
    });
  }
}

/**
 * The run behind one MCP session, kept current. A refresh builds a fresh run;
 * it replaces the current one only when the catalog or the exposure changed,
 * so guards that keep per-run state are not reset for nothing. A replaced run
 * is closed once its in-flight calls have finished (a refresh never cancels a
 * call). Every run of a session shares one session id (loop detection, logs).
 */
import { randomUUID } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/server';
import type { Kernel, Run, RunExposure, RunRequest } from '@tool-search/kernel';
import { namespaceToolMeta } from './namespace.js';

export interface LiveRunOptions {
  readonly kernel: Kernel;
  readonly mode: string;
  readonly request?: RunRequest;
}

/** One run, its exposure, and what the MCP client sees of it. */
export interface Snapshot {
  readonly run: Run;
  readonly exposure: RunExposure;
  /** The `tools/list` answer. */
  readonly tools: readonly Tool[];
  /** Changes when the `tools/list` answer changes. */
  readonly toolsKey: string;
  /** Changes when anything the run decides on changes (catalog, exposure, system text). */
  readonly key: string;
}

export interface RefreshResult {
  /** A new run replaced the previous one. */
  readonly replaced: boolean;
  /** The `tools/list` answer changed: tell the client. */
  readonly toolsChanged: boolean;
}

export interface LiveRun {
  readonly current: Snapshot;
  readonly sessionId: string;
  /** Rebuilds the run; `force` replaces it even when nothing changed (e.g. after the run was stopped). */
  refresh(force?: boolean): Promise<RefreshResult>;
  /** Runs `use` against the current snapshot, keeping its run open until `use` settles. */
  use<T>(use: (snapshot: Snapshot) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function createLiveRun(options: LiveRunOptions): Promise<LiveRun> {
  const sessionId = options.request?.sessionId ?? randomUUID();
  const inFlight = new Map<Run, number>();
  const retired = new Set<Run>();
  let current = await build();
  let refreshing: Promise<RefreshResult> | undefined;
  let closed = false;

  async function build(): Promise<Snapshot> {
    const run = await options.kernel.createRun({ ...options.request, sessionId });
    try {
      const exposure = await run.exposure(options.mode);
      const tools = exposure.tools.map((view) => toMcpTool(view, run));
      const catalog = run.catalog.map(({ id, description, inputSchema, catalogMode, annotations }) => ({
        id,
        description,
        inputSchema,
        catalogMode,
        annotations,
      }));
      return {
        run,
        exposure,
        tools,
        toolsKey: JSON.stringify(tools),
        key: JSON.stringify({ catalog, exposure: exposure.toJSON() }),
      };
    } catch (error) {
      await run.close();
      throw error;
    }
  }

  async function retire(run: Run): Promise<void> {
    if ((inFlight.get(run) ?? 0) > 0) {
      retired.add(run);
      return;
    }
    await run.close();
  }

  async function refreshOnce(force: boolean): Promise<RefreshResult> {
    const next = await build();
    if (closed || (!force && next.key === current.key)) {
      await next.run.close();
      return { replaced: false, toolsChanged: false };
    }
    const previous = current;
    current = next;
    await retire(previous.run);
    return { replaced: true, toolsChanged: next.toolsKey !== previous.toolsKey };
  }

  return {
    get current() {
      return current;
    },
    sessionId,
    refresh(force = false) {
      // Concurrent refreshes share one rebuild; a forced one waits for it and rebuilds again.
      if (refreshing && !force) return refreshing;
      const before = refreshing?.catch(() => undefined); // only waits for it: the earlier refresh's failure went to its own caller
      const promise: Promise<RefreshResult> = (async () => {
        await before;
        return refreshOnce(force);
      })().finally(() => {
        if (refreshing === promise) refreshing = undefined;
      });
      refreshing = promise;
      return promise;
    },
    async use(fn) {
      const snapshot = current;
      const { run } = snapshot;
      inFlight.set(run, (inFlight.get(run) ?? 0) + 1);
      try {
        return await fn(snapshot);
      } finally {
        const left = (inFlight.get(run) ?? 1) - 1;
        if (left > 0) inFlight.set(run, left);
        else inFlight.delete(run);
        if (left <= 0 && retired.delete(run)) await run.close();
      }
    },
    async close() {
      closed = true;
      await refreshing?.catch(() => undefined); // closing: only waits for it; its failure went to its own caller
      await Promise.all([current.run, ...retired].map((run) => run.close()));
      retired.clear();
    },
  };
}

/** An exposed tool as MCP lists it; a catalog tool keeps its title and annotations (read-only, destructive hints). */
export function toMcpTool(view: RunExposure['tools'][number], run: Run): Tool {
  const descriptor = view.toolId ? run.tool(view.toolId) : undefined;
  return {
    name: view.name,
    description: view.description,
    inputSchema: view.inputSchema as Tool['inputSchema'],
    ...(descriptor?.title ? { title: descriptor.title } : {}),
    ...(descriptor?.annotations ? { annotations: descriptor.annotations as Tool['annotations'] } : {}),
    ...(descriptor?.outputSchema ? { outputSchema: descriptor.outputSchema as Tool['outputSchema'] } : {}),
    ...(descriptor?.meta?.mcpToolMeta
      ? {
          _meta:
            descriptor.source === 'mcp'
              ? namespaceToolMeta(descriptor.meta.mcpToolMeta, descriptor.owner)
              : { ...descriptor.meta.mcpToolMeta },
        }
      : {}),
  };
}

/**
 * Every kernel hook, declared once (the only file that says `new …Hook`).
 * The hook class answers the kernel's question:
 * - listTools      AsyncParallelHook   sources contribute independently
 * - filterPolicy   SyncWaterfallHook   each tap narrows the catalog (verified)
 * - beforeToolCall AsyncSeriesBailHook the first block or replacement wins
 * - materialize    HookMap of AsyncSeriesWaterfallHook, keyed by exposure mode
 * and the run lifecycle, which plugins only observe:
 * - runStart / runEvent / afterToolCall / runEnd / shutdown
 */
import {
  AsyncParallelHook,
  AsyncSeriesBailHook,
  AsyncSeriesHook,
  AsyncSeriesWaterfallHook,
  HookMap,
  SyncHook,
  SyncWaterfallHook,
} from 'tapable';
import type {
  CallContext,
  CallDecision,
  CatalogSink,
  ExposureDraft,
  ListContext,
  MaterializeContext,
  PolicyContext,
  RunEvent,
  RunInfo,
  ToolCall,
  ToolCallOutcome,
  ToolDescriptor,
} from './types.js';

export function createKernelHooks() {
  return Object.freeze({
    /** Sources add their tools to the sink. A failing or slow source is isolated. */
    listTools: new AsyncParallelHook<[catalog: CatalogSink, ctx: ListContext]>(['catalog', 'ctx'], 'listTools'),
    /** Narrows the catalog; each tap must return a subset of what it received. */
    filterPolicy: new SyncWaterfallHook<[tools: readonly ToolDescriptor[], ctx: PolicyContext]>(
      ['tools', 'ctx'],
      'filterPolicy',
    ),
    /** Runs before a validated call; return a decision to block or replace it, `undefined` to let it run. */
    beforeToolCall: new AsyncSeriesBailHook<[call: ToolCall, ctx: CallContext], CallDecision | undefined>(
      ['call', 'ctx'],
      'beforeToolCall',
    ),
    /** Turns the effective catalog into what the model sees, per mode (`materialize.for('tools')`). */
    materialize: new HookMap(
      (mode: string) =>
        new AsyncSeriesWaterfallHook<[draft: ExposureDraft, ctx: MaterializeContext]>(
          ['draft', 'ctx'],
          `materialize:${mode}`,
        ),
      'materialize',
    ),
    /** A run was created and its catalog is final. */
    runStart: new SyncHook<[run: RunInfo, catalog: readonly ToolDescriptor[]]>(['run', 'catalog'], 'runStart'),
    /** Something happened in a run (search, describe, plugin events). */
    runEvent: new SyncHook<[event: RunEvent, run: RunInfo]>(['event', 'run'], 'runEvent'),
    /** A call finished (any status). */
    afterToolCall: new AsyncSeriesHook<[call: ToolCall, outcome: ToolCallOutcome, ctx: CallContext]>(
      ['call', 'outcome', 'ctx'],
      'afterToolCall',
    ),
    /** A run was closed. */
    runEnd: new AsyncSeriesHook<[run: RunInfo]>(['run'], 'runEnd'),
    /** The kernel is closing: release processes and connections. */
    shutdown: new AsyncParallelHook<[]>([], 'shutdown'),
  });
}

export type KernelHooks = ReturnType<typeof createKernelHooks>;
export type KernelHookName = keyof KernelHooks;

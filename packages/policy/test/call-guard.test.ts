import {
  createKernel,
  ErrorCode,
  STAGE,
  type CallContext,
  type CallDecision,
  type PluginApi,
  type PolicyContext,
  type PolicyStep,
  type RunInfo,
  type ToolCall,
  type ToolDescriptor,
} from '@tool-search/kernel';
import { providerExposure } from '@tool-search/provider-formats';
import { describe, expect, it } from 'vitest';
import { policyPlugin, type PolicyOptions } from '../src/index.js';
import { definitions, DEFAULT_CATALOG, inventoryPlugin, runWith } from './fixtures.js';

type FilterFn = (tools: readonly ToolDescriptor[], ctx: PolicyContext) => readonly ToolDescriptor[];
type CallFn = (call: ToolCall, ctx: CallContext) => CallDecision | undefined;

/** Applies the plugin to a recording facade, to drive its taps directly. */
function capture(options: PolicyOptions) {
  const taps: { filter?: FilterFn; call?: CallFn; stages: Record<string, number | undefined> } = { stages: {} };
  const hooks = {
    filterPolicy: {
      tap: (opts: { stage?: number }, fn: FilterFn) => ((taps.filter = fn), (taps.stages.filterPolicy = opts.stage)),
    },
    beforeToolCall: {
      tap: (opts: { stage?: number }, fn: CallFn) => ((taps.call = fn), (taps.stages.beforeToolCall = opts.stage)),
    },
  };
  policyPlugin(options).apply({ name: 'x', hooks, logger: console } as unknown as PluginApi);
  return taps;
}

const tools: ToolDescriptor[] = definitions(DEFAULT_CATALOG).map((d) => ({
  id: `${d.source}:${d.owner}:${d.name}`,
  name: d.name,
  source: d.source,
  owner: d.owner,
  description: d.description,
  inputSchema: d.inputSchema,
  catalogMode: 'catalog',
  ...(d.meta ? { meta: d.meta } : {}),
}));
const byName = (name: string) => tools.find((t) => t.name === name)!;
const info = (request: RunInfo['request'] = {}): RunInfo => Object.freeze({ runId: 'r', sessionId: 's', request });
const policyCtx = (run: RunInfo): PolicyContext => ({
  run,
  listed: tools,
  listingErrors: [],
  trace: () => {},
  diagnostic: () => {},
});
const callCtx = (run: RunInfo): CallContext => ({ run, signal: new AbortController().signal, emit: () => {} });
const call = (tool: ToolDescriptor): ToolCall => ({ callId: 'c', tool, args: {}, origin: 'api' });

describe('beforeToolCall re-check', () => {
  it('taps both hooks at STAGE.POLICY under the package name', () => {
    expect(policyPlugin({}).name).toBe('@tool-search/policy');
    expect(capture({}).stages).toEqual({ filterPolicy: STAGE.POLICY, beforeToolCall: STAGE.POLICY });
  });

  it('blocks a call to a tool the filter dropped, saying which step dropped it', () => {
    const taps = capture({ tools: { deny: ['exec'] } });
    const run = info();
    taps.filter!(tools, policyCtx(run));
    const decision = taps.call!(call(byName('exec')), callCtx(run));
    expect(decision).toMatchObject({ action: 'block' });
    expect((decision as { reason: string }).reason).toContain('tools.deny');
  });

  it('lets a call to a kept tool through', () => {
    const taps = capture({ tools: { deny: ['exec'] } });
    const run = info();
    taps.filter!(tools, policyCtx(run));
    expect(taps.call!(call(byName('read')), callCtx(run))).toBeUndefined();
  });

  it('blocks a tool the filter never received (removed by an earlier tap)', () => {
    const taps = capture({});
    const run = info();
    taps.filter!(
      tools.filter((t) => t.name !== 'exec'),
      policyCtx(run),
    );
    expect(taps.call!(call(byName('exec')), callCtx(run))).toMatchObject({ action: 'block' });
  });

  it('blocks every call of a run it has no decision for (fail closed)', () => {
    const taps = capture({});
    expect(taps.call!(call(byName('read')), callCtx(info()))).toMatchObject({ action: 'block' });
  });

  it('keeps decisions per run: a sandboxed run does not widen or narrow another run', () => {
    const taps = capture({});
    const plain = info();
    const sandboxed = info({ sandboxed: true });
    taps.filter!(tools, policyCtx(plain));
    taps.filter!(tools, policyCtx(sandboxed));
    expect(taps.call!(call(byName('browser')), callCtx(plain))).toBeUndefined();
    expect(taps.call!(call(byName('browser')), callCtx(sandboxed))).toMatchObject({ action: 'block' });
  });

  it('records trace steps through ctx.trace', () => {
    const taps = capture({ tools: { profile: 'minimal' } });
    const traced: [string, PolicyStep][] = [];
    taps.filter!(tools, { ...policyCtx(info()), trace: (id, step) => traced.push([id, step]) });
    expect(traced).toContainEqual([
      'core:core:session_status',
      { step: 'profile:minimal', kept: true, rule: 'session_status' },
    ]);
    expect(traced).toContainEqual([
      'core:core:exec',
      { step: 'profile:minimal', kept: false, rule: 'no allow entry matches' },
    ]);
  });
});

describe('through the kernel', () => {
  it('refuses a dropped tool by name and by id', async () => {
    const run = await runWith({ tools: { deny: ['exec', 'mcp:github:*'] } });
    await expect(run.call('exec', {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
    await expect(run.call('core:core:exec', {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
    await expect(run.call('mcp:github:create_issue', {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
    expect(await run.call('read', {})).toMatchObject({ status: 'ok', toolId: 'core:core:read' });
  });

  it('keeps dropped tools out of what is sent to the model', async () => {
    const run = await runWith({ tools: { profile: 'minimal' } });
    const exposure = await run.exposure('direct');
    expect(
      providerExposure(exposure)
        .toOpenAI()
        .map((t) => t.function.name),
    ).toEqual(['session_status']);
    expect(await exposure.call('exec', {})).toMatchObject({ status: 'error' });
  });

  it('keeps one decision per run: a sandboxed run of the same kernel does not change another run', async () => {
    const kernel = createKernel({ plugins: [inventoryPlugin(), policyPlugin({})] });
    const plain = await kernel.createRun();
    const sandboxed = await kernel.createRun({ sandboxed: true });
    expect(await plain.call('browser', {})).toMatchObject({ status: 'ok' });
    await expect(sandboxed.call('browser', {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
    expect(await sandboxed.call('read', {})).toMatchObject({ status: 'ok' });
    await kernel.close();
  });

  it('cannot be widened by changing the options object after the plugin is created', async () => {
    const options = { tools: { deny: ['exec'] as string[] } };
    const kernel = createKernel({ plugins: [inventoryPlugin(), policyPlugin(options)] });
    options.tools.deny.length = 0;
    const run = await kernel.createRun();
    expect(run.tool('exec')).toBeUndefined();
  });
});

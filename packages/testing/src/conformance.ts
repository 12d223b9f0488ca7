/**
 * Conformance checks every tool source must pass, runnable from any test
 * runner: schemas valid, ids stable across runs, calls validated before the
 * tool runs, and failures of other sources isolated from this one.
 */
import {
  createKernel,
  ErrorCode,
  ToolSearchError,
  type KernelPlugin,
  type RunRequest,
  type ToolDescriptor,
} from '@tool-search/kernel';

export interface ConformanceCheck {
  readonly name:
    | 'lists-tools'
    | 'schemas-valid'
    | 'ids-stable'
    | 'ids-well-formed'
    | 'calls-validated'
    | 'failures-isolated';
  readonly ok: boolean;
  readonly message: string;
}

export interface ConformanceReport {
  readonly plugin: string;
  readonly ok: boolean;
  readonly tools: number;
  readonly checks: readonly ConformanceCheck[];
}

export interface ConformanceOptions {
  /** Plugins the source needs (its `dependsOn`), registered before it. */
  readonly with?: readonly KernelPlugin[];
  readonly request?: RunRequest;
  /** How many tools to probe with invalid arguments (default 5). */
  readonly probe?: number;
  /** Close the kernels after the checks (default true). */
  readonly close?: boolean;
}

/** Runs every check against a fresh kernel holding `plugin` (and `options.with`). */
export async function checkSourceConformance(
  plugin: KernelPlugin | (() => KernelPlugin),
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const make = typeof plugin === 'function' ? plugin : () => plugin;
  const checks: ConformanceCheck[] = [];
  const ran: string[] = [];
  const spy: KernelPlugin = {
    name: '@tool-search/testing:call-spy',
    apply: ({ hooks }) => hooks.beforeToolCall.tap((call) => void ran.push(call.tool.id)),
  };
  const first = make();
  let listed = 0;
  const kernel = createKernel({ plugins: [...(options.with ?? []), first, spy] });
  try {
    const runA = await kernel.createRun(options.request);
    const runB = await kernel.createRun(options.request);
    listed = runA.catalog.length;
    const own = (tools: readonly ToolDescriptor[]) => tools.map((t) => t.id);
    const schemaProblems = runA.diagnostics.filter(
      (d) => d.code === ErrorCode.TOOL_SCHEMA_INVALID || d.code === ErrorCode.TOOL_INVALID,
    );
    checks.push({ name: 'lists-tools', ok: runA.catalog.length > 0, message: `${runA.catalog.length} tools listed` });
    checks.push({
      name: 'schemas-valid',
      ok: schemaProblems.length === 0,
      message: schemaProblems.length
        ? schemaProblems.map((d) => d.message).join('; ')
        : 'every input schema is valid JSON Schema',
    });
    const idsA = own(runA.catalog).join('\n');
    const idsB = own(runB.catalog).join('\n');
    checks.push({
      name: 'ids-stable',
      ok: idsA === idsB,
      message: idsA === idsB ? 'same ids on two runs' : 'ids differ between two runs',
    });
    const malformed = runA.catalog.filter((t) => t.id !== `${t.source}:${t.owner}:${t.name}`);
    checks.push({
      name: 'ids-well-formed',
      ok: malformed.length === 0,
      message: malformed.length ? `bad ids: ${own(malformed).join(', ')}` : 'ids are <source>:<owner>:<name>',
    });
    checks.push(await callsValidated(runA.catalog.slice(0, options.probe ?? 5), runA, ran));
    checks.push(await failuresIsolated(make, options, runA.catalog.length));
    await runA.close();
    await runB.close();
  } finally {
    if (options.close !== false) await kernel.close();
  }
  return { plugin: first.name, ok: checks.every((c) => c.ok), tools: listed, checks };
}

/** Sends arguments no object schema accepts (a string) and a wrong-typed property; the tool must never be reached. */
async function callsValidated(
  tools: readonly ToolDescriptor[],
  run: { call(id: string, args: unknown): Promise<unknown> },
  ran: string[],
): Promise<ConformanceCheck> {
  const failures: string[] = [];
  for (const tool of tools) {
    ran.length = 0;
    const rejected = await run.call(tool.id, 'not an object').then(
      () => false,
      (error: unknown) => ToolSearchError.isInstance(error) && error.code === ErrorCode.TOOL_ARGUMENTS_INVALID,
    );
    if (!rejected || ran.length) failures.push(tool.id);
  }
  return {
    name: 'calls-validated',
    ok: failures.length === 0,
    message: failures.length
      ? `invalid arguments reached: ${failures.join(', ')}`
      : `invalid arguments rejected for ${tools.length} tools`,
  };
}

async function failuresIsolated(
  make: () => KernelPlugin,
  options: ConformanceOptions,
  expected: number,
): Promise<ConformanceCheck> {
  const broken: KernelPlugin = {
    name: '@tool-search/testing:broken-source',
    apply: ({ hooks }) =>
      hooks.listTools.tapPromise(async () => {
        throw new Error('deliberately broken source');
      }),
  };
  const kernel = createKernel({ plugins: [...(options.with ?? []), broken, make()] });
  try {
    const run = await kernel.createRun(options.request);
    const ok =
      run.catalog.length === expected &&
      run.diagnostics.some((d) => d.code === ErrorCode.SOURCE_FAILED && d.plugin === broken.name);
    await run.close();
    return {
      name: 'failures-isolated',
      ok,
      message: ok
        ? 'a failing sibling source did not affect this one'
        : `expected ${expected} tools next to a failing source, got ${run.catalog.length}`,
    };
  } finally {
    await kernel.close();
  }
}

import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type KernelPlugin } from '@tool-search/kernel';
import { PROVIDER_NAME_PATTERN, providerExposure } from '../src/index.js';
import { source, tool } from './helpers.js';

const tools = [
  tool('read'),
  tool('pinned', { catalogMode: 'direct-only' }),
  tool('weird.name/with:chars', { source: 'mcp', owner: 'srv' }),
];

/** A mode that shows one control tool and resolves one hidden name (as directory mode does). */
const hiddenMode: KernelPlugin = {
  name: 'hidden-mode',
  apply({ hooks }) {
    hooks.materialize.for('hidden').tap((draft) => ({
      ...draft,
      tools: [
        ...draft.tools,
        {
          name: 'ping',
          description: 'answers pong',
          inputSchema: { type: 'object' },
          handler: async () => ({ content: [{ type: 'text', text: 'pong' }] }),
        },
      ],
      resolveHidden: (name) => (name === 'secret.read' ? 'core:core:read' : undefined),
    }));
  },
};

describe('providerExposure', () => {
  it('formats for OpenAI and Anthropic with provider-safe names that route back', async () => {
    const run = await createKernel({ plugins: [source('s', tools)] }).createRun();
    const exposure = providerExposure(await run.exposure('direct'));
    const openai = exposure.toOpenAI();
    const anthropic = exposure.toAnthropic();
    for (const t of openai) expect(t.function.name).toMatch(PROVIDER_NAME_PATTERN);
    for (const t of anthropic) expect(t.name).toMatch(PROVIDER_NAME_PATTERN);
    const weird = openai.find((t) => t.function.name.startsWith('weird'))!;
    expect(weird.type).toBe('function');
    expect(anthropic.map((t) => t.name)).toEqual(openai.map((t) => t.function.name));
    expect(anthropic[0]).toEqual({ name: 'read', description: 'The read tool', input_schema: tools[0]!.inputSchema });
    await expect(exposure.call(weird.function.name, {})).resolves.toMatchObject({
      status: 'ok',
      toolId: 'mcp:srv:weird.name/with:chars',
    });
    expect(exposure.has(weird.function.name)).toBe(true);
    expect(exposure.providerName('weird.name/with:chars')).toBe(weird.function.name);
  });

  it('leaves the kernel exposure neutral: only the wrapper routes provider names', async () => {
    const run = await createKernel({ plugins: [source('s', tools)] }).createRun();
    const neutral = await run.exposure('direct');
    const wrapped = providerExposure(neutral);
    const weird = wrapped.providerName('weird.name/with:chars');
    expect(weird).not.toBe('weird.name/with:chars');
    expect(neutral.has(weird)).toBe(false);
    await expect(neutral.call(weird, {})).resolves.toMatchObject({
      status: 'error',
      error: { code: ErrorCode.UNKNOWN_TOOL },
    });
    expect(wrapped.exposure).toBe(neutral);
    expect(wrapped.tools).toBe(neutral.tools);
    expect(JSON.stringify(wrapped)).toBe(JSON.stringify(neutral));
  });

  it('is the same wrapper for the same exposure, and wrapping a wrapper changes nothing', async () => {
    const run = await createKernel({ plugins: [source('s', tools)] }).createRun();
    const neutral = await run.exposure('direct');
    const wrapped = providerExposure(neutral);
    expect(providerExposure(neutral)).toBe(wrapped);
    expect(providerExposure(wrapped)).toBe(wrapped);
  });

  it('passes names it does not know to the exposure: hidden names resolve, unknown ones are UNKNOWN_TOOL', async () => {
    const run = await createKernel({ plugins: [source('s', tools), hiddenMode] }).createRun();
    const exposure = providerExposure(await run.exposure('hidden'));
    await expect(exposure.call('ping', {})).resolves.toMatchObject({
      status: 'ok',
      result: { content: [{ text: 'pong' }] },
    });
    await expect(exposure.call('secret.read', { value: 'x' })).resolves.toMatchObject({
      status: 'ok',
      toolId: 'core:core:read',
    });
    expect(exposure.has('secret.read')).toBe(true);
    expect(exposure.has('nope')).toBe(false);
    await expect(exposure.call('nope', {})).resolves.toMatchObject({
      status: 'error',
      toolId: 'nope',
      error: { code: ErrorCode.UNKNOWN_TOOL },
    });
  });

  it('routes an exposed name to itself even when it equals the provider-safe form another name would take', async () => {
    // `a.b` cannot keep its name; `a_b` is valid and keeps its own, so `a.b` gets a hashed form and never `a_b`.
    const run = await createKernel({
      plugins: [source('s', [tool('a.b'), tool('a_b', { source: 'plugin', owner: 'p' })])],
    }).createRun();
    const exposure = providerExposure(await run.exposure('direct'));
    expect(exposure.providerName('a_b')).toBe('a_b');
    expect(exposure.providerName('a.b')).not.toBe('a_b');
    await expect(exposure.call('a_b', {})).resolves.toMatchObject({ status: 'ok', toolId: 'plugin:p:a_b' });
    await expect(exposure.call(exposure.providerName('a.b'), {})).resolves.toMatchObject({
      status: 'ok',
      toolId: 'core:core:a.b',
    });
  });

  it('is byte-identical for the same catalog, whatever order sources finish in', async () => {
    const slow = (name: string, delay: number, list: ReturnType<typeof tool>[]): KernelPlugin =>
      source(name, () => new Promise((r) => setTimeout(() => r(list), delay)));
    const a = await createKernel({
      plugins: [slow('a', 5, [tool('x.y')]), slow('b', 1, [tool('y', { source: 'plugin', owner: 'b' })])],
    }).createRun();
    const b = await createKernel({
      plugins: [slow('a', 1, [tool('x.y')]), slow('b', 5, [tool('y', { source: 'plugin', owner: 'b' })])],
    }).createRun();
    const openai = async (run: typeof a) => JSON.stringify(providerExposure(await run.exposure('direct')).toOpenAI());
    expect(await openai(a)).toBe(await openai(b));
  });
});

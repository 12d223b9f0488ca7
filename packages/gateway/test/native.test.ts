/**
 * `native` mode through the gateway, driven with the official OpenAI client over HTTP: on an Anthropic upstream
 * with deferred loading the catalog goes as `defer_loading` tools and `tool_search` is answered with
 * `tool_reference` blocks; on an OpenAI-compatible upstream the gateway falls back to `tools` mode, saying so once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeModePlugin } from '@tool-search/mode-native';
import { capabilitiesFromConfig } from '@tool-search/gateway';
import { ask, harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

type AnthropicBody = {
  tools: { name: string; defer_loading?: boolean }[];
  messages: { role: string; content: unknown }[];
};

const arrayText = (raw: string, key: 'messages' | 'tools') => {
  const start = raw.indexOf(`"${key}":[`) + key.length + 3;
  const end = key === 'messages' ? raw.indexOf(',"tools":', start) : raw.lastIndexOf(']') + 1;
  return raw.slice(start, end);
};

describe('native mode', () => {
  it('Anthropic upstream: deferred catalog, tool_search answered with tool_reference, the found tool called through the run', async () => {
    const { client } = await h.gateway('native', { upstream: h.upstream('anthropic'), plugins: [nativeModePlugin()] });
    const from = h.anthropic.requests.length;
    const completion = await client.chat.completions.create({ model: 'm', messages: ask('fake_plugin_tool_0005') });
    expect(completion.choices[0]?.message.content).toContain('FAKE_TOOL_OK fake_plugin_tool_0005');
    const field = (
      completion as unknown as {
        tool_search: { mode: string; path: string; tool_calls: { name: string; status: string }[] };
      }
    ).tool_search;
    expect(field.mode).toBe('native');
    expect(field.path).toBe('pass-through');
    expect(field.tool_calls.map((c) => [c.name, c.status])).toEqual([
      ['tool_search', 'ok'],
      ['fake_plugin_tool_0005', 'ok'],
    ]);

    const sent = h.received('anthropic', from);
    expect(sent).toHaveLength(3);
    const first = sent[0]!.body as unknown as AnthropicBody;
    const search = first.tools.find((t) => t.name === 'tool_search')!;
    expect(search.defer_loading).toBeUndefined();
    const catalog = first.tools.filter((t) => t.name.startsWith('fake_'));
    expect(catalog.length).toBeGreaterThan(10);
    expect(catalog.every((t) => t.defer_loading === true)).toBe(true);
    // The search result is a tool_result of tool_reference blocks.
    const second = sent[1]!.body as unknown as AnthropicBody;
    const results = JSON.stringify(second.messages.at(-1));
    expect(results).toContain('{"type":"tool_reference","tool_name":"fake_plugin_tool_0005"}');
    // Tools byte-identical, each request's messages a byte prefix of the next.
    const raws = sent.map((r) => r.raw);
    for (let i = 1; i < raws.length; i++) {
      expect(arrayText(raws[i]!, 'tools')).toBe(arrayText(raws[0]!, 'tools'));
      expect(arrayText(raws[i]!, 'messages').startsWith(arrayText(raws[i - 1]!, 'messages').slice(0, -1))).toBe(true);
    }
  });

  it('OpenAI-compatible upstream: falls back to tools mode, logging it once', async () => {
    const lines: string[] = [];
    const { client } = await h.gateway('native', {
      upstream: h.upstream('openai'),
      plugins: [nativeModePlugin()],
      log: (line) => lines.push(line),
    });
    for (let i = 0; i < 2; i++) {
      const completion = await client.chat.completions.create({ model: 'm', messages: ask('fake_plugin_tool_0005') });
      expect(completion.choices[0]?.message.content).toContain('FAKE_TOOL_OK fake_plugin_tool_0005');
      const field = (
        completion as unknown as {
          tool_search: { mode: string; path: string; fallback: { from: string; reason: string } };
        }
      ).tool_search;
      expect(field.mode).toBe('tools');
      expect(field.path).toBe('fallback-tools');
      expect(field.fallback).toMatchObject({
        from: 'native',
        reason: expect.stringContaining('no deferred tool loading'),
      });
    }
    expect(lines.filter((line) => line.includes('native mode'))).toHaveLength(1);
  });

  it('Anthropic upstream whose capability table says no tool_reference loading: falls back to tools mode, logging it once', async () => {
    const lines: string[] = [];
    const capabilities = capabilitiesFromConfig({
      'anthropic/mock-*': { deferLoading: true, toolSearch: true, toolReference: false },
    });
    const { client } = await h.gateway('native', {
      upstream: h.upstream('anthropic'),
      plugins: [nativeModePlugin()],
      capabilities,
      log: (line) => lines.push(line),
    });
    const from = h.anthropic.requests.length;
    for (let i = 0; i < 2; i++) {
      const completion = await client.chat.completions.create({ model: 'm', messages: ask('fake_plugin_tool_0005') });
      expect(completion.choices[0]?.message.content).toContain('FAKE_TOOL_OK fake_plugin_tool_0005');
      const field = (
        completion as unknown as { tool_search: { mode: string; path: string; fallback: { from: string } } }
      ).tool_search;
      expect(field).toMatchObject({ mode: 'tools', path: 'fallback-tools', fallback: { from: 'native' } });
    }
    expect(lines.filter((line) => line.includes('native mode'))).toHaveLength(1);
    expect(h.received('anthropic', from).some((request) => request.raw.includes('defer_loading'))).toBe(false);
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPARED_MODES } from '@tool-search/config';
import { codeModePlugin } from '@tool-search/mode-code';
import { nativeModePlugin } from '@tool-search/mode-native';
import { fakeTool, toolSource } from '@tool-search/testing';
import { readSessionLog, sessionFileName, telemetryPlugin } from '@tool-search/telemetry';
import type { KernelPlugin } from '@tool-search/kernel';
import type { TurnLedger } from '@tool-search/gateway';
import { ask, harness, UPSTREAMS, type Harness, type UpstreamKind } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

type Answer = {
  tool_search: { ledger: TurnLedger; exposure: { fingerprint: string; changed: boolean }; session_id: string };
};

async function turn(
  kind: UpstreamKind,
  mode: string,
  options: { plugins?: KernelPlugin[]; sessionId?: string; target?: string; countTokens?: boolean } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-ledger-'));
  const { client } = await h.gateway(mode, {
    upstream: h.upstream(kind),
    plugins: [telemetryPlugin({ sessionLog: { dir }, tokenizer: false }), ...(options.plugins ?? [])],
    ...(options.countTokens ? { countTokens: undefined } : {}),
  });
  const send = async (sessionId: string) => {
    const from = h[kind].requests.length;
    const answer = (await client.chat.completions.create(
      { model: 'm', messages: ask(options.target ?? 'fake_plugin_tool_0005') },
      { headers: { 'x-session-id': sessionId } },
    )) as unknown as Answer;
    return {
      answer,
      raw: h.received(kind, from).map((r) => r.raw),
      log: () => readSessionLog(join(dir, sessionFileName(sessionId))),
    };
  };
  return { send };
}

describe.each(UPSTREAMS)('the whole-turn ledger (%s upstream)', (kind) => {
  it('counts every provider request exactly as sent, the discovery step, and the computed direct-mode cost', async () => {
    const { send } = await turn(kind, 'tools', { countTokens: true });
    const { answer, raw, log } = await send(`ledger-${kind}`);
    const ledger = answer.tool_search.ledger;
    expect(ledger.requests.map((r) => r.bytes)).toEqual(raw.map((body) => Buffer.byteLength(body)));
    expect(ledger.requests.map((r) => r.discovery)).toEqual([true, false, false]);
    expect(ledger.total.bytes).toBe(ledger.requests.reduce((sum, r) => sum + r.bytes, 0));
    expect(ledger.total.tokens).toBeGreaterThan(0);
    expect(ledger.discovery).toMatchObject({ calls: 1, requests: 1, bytes: ledger.requests[0]!.bytes });
    expect(ledger.direct).toMatchObject({ computed: true, requests: 2 });

    // The computed direct cost is close to what a real direct-mode turn sends.
    const direct = await (await turn(kind, 'direct')).send(`ledger-direct-${kind}`);
    const real = direct.raw.reduce((sum, body) => sum + Buffer.byteLength(body), 0);
    expect(direct.answer.tool_search.ledger.direct).toMatchObject({ computed: false, bytes: real });
    expect(Math.abs(ledger.direct.bytes - real) / real).toBeLessThan(0.05);

    const entries = await log();
    expect(entries).toContainEqual(
      expect.objectContaining({
        type: 'event',
        event: 'turn-ledger',
        data: expect.objectContaining({ mode: 'tools', ledger }),
      }),
    );
  });
});

/** A source whose catalog grows when `grow()` is called (a changed catalog must change the exposure). */
function changingSource(): { plugin: KernelPlugin; grow(): void } {
  let count = 1;
  return {
    plugin: {
      name: 'changing',
      apply: ({ hooks }) =>
        hooks.listTools.tap((sink) =>
          sink.add(
            Array.from({ length: count }, (_, i) =>
              fakeTool(`changing_${i}`, 'plugin', 'changing', `Changing tool ${i}`),
            ),
          ),
        ),
    },
    grow: () => void count++,
  };
}

const MODES = COMPARED_MODES;

describe.each(UPSTREAMS)('prompt-cache stability (%s upstream)', (kind) => {
  it.each(MODES)('sends byte-identical tools and system text within a session in %s mode', async (mode) => {
    const { send } = await turn(kind, mode, { plugins: [codeModePlugin()] });
    const first = await send(`stable-${kind}-${mode}`);
    const second = await send(`stable-${kind}-${mode}`);
    const parts = (raw: string) => {
      const body = JSON.parse(raw) as {
        tools?: unknown;
        system?: unknown;
        messages: { role: string; content: unknown }[];
      };
      return JSON.stringify({
        tools: body.tools,
        system: body.system ?? body.messages.filter((m) => m.role === 'system').map((m) => m.content),
      });
    };
    const all = [...first.raw, ...second.raw].map(parts);
    expect(new Set(all).size).toBe(1);
    expect(second.answer.tool_search.exposure).toEqual({
      fingerprint: first.answer.tool_search.exposure.fingerprint,
      changed: false,
    });
    expect(
      (await second.log()).some((e) => e.type === 'event' && (e as { event: string }).event === 'exposure-changed'),
    ).toBe(false);
  });

  it('marks the request whose exposure changed with the catalog in the session log', async () => {
    const source = changingSource();
    const { send } = await turn(kind, 'direct', { plugins: [source.plugin] });
    const first = await send(`changing-${kind}`);
    source.grow();
    const second = await send(`changing-${kind}`);
    expect(second.answer.tool_search.exposure.changed).toBe(true);
    expect(second.answer.tool_search.exposure.fingerprint).not.toBe(first.answer.tool_search.exposure.fingerprint);
    const changes = (await second.log()).filter(
      (e) => e.type === 'event' && (e as { event: string }).event === 'exposure-changed',
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      data: {
        mode: 'direct',
        from: first.answer.tool_search.exposure.fingerprint,
        to: second.answer.tool_search.exposure.fingerprint,
      },
    });
  });
});

describe('tool_calls of a code-mode turn', () => {
  it('says error, not ok, when the code failed (its tool threw)', async () => {
    const explode = fakeTool('explode_now', 'plugin', 'fake', 'Explodes when called', {
      execute: () => {
        throw new Error('boom');
      },
    });
    const { client } = await h.gateway('code', {
      upstream: h.upstream('openai'),
      plugins: [codeModePlugin(), toolSource([explode])],
    });
    const answer = (await client.chat.completions.create({ model: 'm', messages: ask('explode_now') })) as unknown as {
      tool_search: { tool_calls: { name: string; status: string }[] };
    };
    expect(answer.tool_search.tool_calls).toEqual([
      expect.objectContaining({ name: 'tool_search_code', status: 'error' }),
    ]);
  });

  it('(and ok when the code succeeded, so the test above can fail)', async () => {
    const { client } = await h.gateway('code', { upstream: h.upstream('openai'), plugins: [codeModePlugin()] });
    const answer = (await client.chat.completions.create({
      model: 'm',
      messages: ask('fake_plugin_tool_0005'),
    })) as unknown as { tool_search: { tool_calls: { name: string; status: string }[] } };
    expect(answer.tool_search.tool_calls).toEqual([
      expect.objectContaining({ name: 'tool_search_code', status: 'ok' }),
    ]);
  });
});

describe('the ledger by mode: native against tools and code (bytes and cache-stable prefix)', () => {
  /** Where the previous body's messages array closes: appending a message keeps every byte before it. */
  const messagesEnd = (raw: string) => Buffer.byteLength(raw.slice(0, raw.indexOf(',"tools":') - 1));

  it('one row per mode on the Anthropic upstream: every later request keeps the whole earlier conversation as its prefix', async () => {
    const rows: { mode: string; requests: number; bytes: number; prefixBytes: number }[] = [];
    for (const mode of ['tools', 'code', 'native']) {
      const { send } = await turn('anthropic', mode, { plugins: [codeModePlugin(), nativeModePlugin()] });
      const { answer, raw } = await send(`ledger-modes-${mode}`);
      const ledger = answer.tool_search.ledger;
      expect(ledger.requests.map((r) => r.bytes)).toEqual(raw.map((body) => Buffer.byteLength(body)));
      expect(ledger.requests[0]!.prefix_bytes).toBe(0);
      for (let i = 1; i < raw.length; i++)
        expect(ledger.requests[i]!.prefix_bytes, `${mode} request ${i + 1}`).toBe(messagesEnd(raw[i - 1]!));
      expect(ledger.total.prefix_bytes).toBe(ledger.requests.reduce((sum, r) => sum + r.prefix_bytes, 0));
      rows.push({
        mode: (answer.tool_search as unknown as { mode: string }).mode,
        requests: raw.length,
        bytes: ledger.total.bytes,
        prefixBytes: ledger.total.prefix_bytes,
      });
    }
    expect(rows.map((row) => [row.mode, row.requests])).toEqual([
      ['tools', 3],
      ['code', 2],
      ['native', 3],
    ]);
    // Native sends the catalog as deferred definitions: more bytes than tools mode's control tools (their stability
    // is the exposure fingerprint's job: prefix_bytes follows the body, where messages come before tools).
    const [tools, , native] = rows;
    expect(native!.bytes).toBeGreaterThan(tools!.bytes);
    for (const row of rows) expect(row.prefixBytes).toBeGreaterThan(0);
  });

  it('native on the OpenAI-compatible upstream: the tools-mode turn it falls back to, with its ledger, says so', async () => {
    const { send } = await turn('openai', 'native', { plugins: [nativeModePlugin()] });
    const { answer, raw } = await send('ledger-modes-native-fallback');
    const field = answer.tool_search as unknown as { mode: string; path: string; ledger: TurnLedger };
    expect(field).toMatchObject({ mode: 'tools', path: 'fallback-tools' });
    expect(field.ledger.requests.map((r) => r.bytes)).toEqual(raw.map((body) => Buffer.byteLength(body)));
    expect(field.ledger.requests.slice(1).every((r) => r.prefix_bytes > 0)).toBe(true);
  });
});

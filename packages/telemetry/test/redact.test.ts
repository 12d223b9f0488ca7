// Values at writeOnly positions of a tool's input schema (sessions_spawn's attachment content) reach no session log
// line and no span, whatever a plugin's event copies of the call.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { createKernel, type KernelPlugin } from '@tool-search/kernel';
import { telemetryPlugin } from '@tool-search/telemetry';
import { collectWriteOnly, redact } from '../src/redact.js';
import { tempDir } from './helpers.js';

const SECRET = 'MARKER-attachment-body-0123456789';

const spawnLike: KernelPlugin = {
  name: 'spawn-like',
  apply({ hooks }) {
    hooks.listTools.tap((sink) =>
      sink.add({
        name: 'spawn',
        source: 'core',
        owner: 'core',
        description: 'Takes files',
        inputSchema: {
          type: 'object',
          properties: {
            task: { type: 'string' },
            files: {
              type: 'array',
              items: {
                type: 'object',
                properties: { name: { type: 'string' }, content: { type: 'string', writeOnly: true } },
              },
            },
          },
        },
        execute: (args) => ({ content: [{ type: 'text', text: `got ${(args.files as unknown[]).length} file(s)` }] }),
      }),
    );
    // Like an approval: an event that copies the call's arguments.
    hooks.beforeToolCall.tap((call, ctx) => {
      ctx.emit({
        type: 'copied-args',
        args: call.args,
        note: `the body was ${String((call.args.files as { content: string }[])[0]!.content)}`,
      } as never);
      return undefined;
    });
  },
};

describe('write-only values', () => {
  it('are replaced in every session log line and span, the rest of the call kept', async () => {
    const dir = await tempDir();
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const telemetry = telemetryPlugin({ sessionLog: { dir }, tracerProvider, tokenizer: false });
    const kernel = createKernel({ plugins: [spawnLike, telemetry] });
    const run = await kernel.createRun({ sessionId: 's1' });
    const outcome = await run.call('spawn', { task: 'read it', files: [{ name: 'a.txt', content: SECRET }] });
    expect(outcome.status).toBe('ok');
    run.emit({ type: 'search', queries: [`find ${SECRET}`], hits: [], origin: 'tool_call' });
    await run.close();
    await kernel.close();
    const log = await readFile(telemetry.sessionLogFile('s1')!, 'utf8');
    expect(log).not.toContain(SECRET);
    const copied = log
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((entry) => entry.event === 'copied-args');
    expect(copied.data).toEqual({
      args: { task: 'read it', files: [{ name: 'a.txt', content: `[redacted: ${SECRET.length} characters]` }] },
      note: `the body was [redacted: ${SECRET.length} characters]`,
    });
    expect(
      JSON.stringify(exporter.getFinishedSpans().map((span) => [span.name, span.attributes, span.events])),
    ).not.toContain(SECRET);
  });

  it('never let through a secret nested deeper than the walk goes', () => {
    let deep: unknown = { note: `the body was ${SECRET}` };
    for (let i = 0; i < 200; i++) deep = { inner: deep };
    const clean = { inner: { inner: 'nothing to hide' } };
    const out = redact({ deep, clean }, new Set([SECRET]));
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(JSON.stringify(out)).toContain('[redacted: nested too deep to scrub]');
    expect(out.clean).toEqual(clean);
  });

  it('are found under properties, items, additionalProperties and anyOf; short ones only replace whole strings', () => {
    const found = new Set<string>();
    const schema = {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          items: { anyOf: [{ type: 'object', additionalProperties: { type: 'string', writeOnly: true } }] },
        },
      },
    };
    collectWriteOnly(schema, { list: [{ a: 'alpha-secret', b: 'xy' }], other: 'visible' }, found);
    expect([...found].sort()).toEqual(['alpha-secret', 'xy']);
    expect(redact({ t: 'has alpha-secret inside', u: 'xy', v: 'xyz keeps xy' }, found)).toEqual({
      t: 'has [redacted: 12 characters] inside',
      u: '[redacted: 2 characters]',
      v: 'xyz keeps xy',
    });
  });
});

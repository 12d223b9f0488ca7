// sessions_spawn attachments stay out of the telemetry too: a real `tool-search gateway` (session logs on, OTLP export
// to a loopback collector, sessions_spawn behind an approval answered over HTTP) spawns a sub-agent with attachments
// whose content is a marker; no session log file and no exported byte holds it (the user's own message aside: the
// scripted model reads its tool calls from there).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplica } from '../src/replicas.js';
import { replicaPrerequisites } from './replica-prerequisites.js';

const { built } = replicaPrerequisites('the attachment redaction e2e test', { redis: false });

/** Every OTLP export body, raw, as sent. */
let collector: { url: string; bodies: string[]; server: Server };
let base: string;
const MARKER = `ATTACHMENT-MARKER-${randomUUID()}`;
const BASE64_MARKER = `BASE64-MARKER-${randomUUID()}`;
const ENCODED = Buffer.from(BASE64_MARKER).toString('base64');

beforeAll(async () => {
  if (!built) return;
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  collector = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server };
  base = realpathSync(mkdtempSync(join(tmpdir(), 'attachment-redaction-')));
  mkdirSync(join(base, 'workspace'));
  const config = {
    plugins: { core: { workspace: join(base, 'workspace') } },
    tools: {
      toolSearch: false,
      sessions_spawn: { attachments: { enabled: true } },
      approvals: { require: ['sessions_spawn'] },
    },
    session: { logDir: join(base, 'logs') },
    telemetry: { otlp: { endpoint: collector.url, exportIntervalMs: 3_600_000 } },
  };
  writeFileSync(join(base, 'tool-search.json'), JSON.stringify(config));
});
afterAll(async () => {
  collector?.server.closeAllConnections();
  await new Promise((resolve) => collector?.server.close(resolve));
});

/** Every file under `dir`, recursively. */
function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) =>
    statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)],
  );
}

/** The user's own message (a turn-message of role user): where the scripted model was given the attachment. */
const usersOwnMessage = (entry: any) =>
  entry.type === 'event' && entry.event === 'turn-message' && entry.data?.role === 'user';

describe.skipIf(!built)('sessions_spawn attachments in telemetry', () => {
  it('reach no session log line and no OTLP export (spans, span events, attributes, metrics)', async () => {
    const gateway = await startReplica({
      id: 'gw-redaction',
      args: [
        'gateway',
        '--config',
        join(base, 'tool-search.json'),
        '--provider-mode',
        'mock-openai',
        '--approvals',
        'http',
      ],
      cwd: base,
    });
    let childSessionId: string | undefined;
    try {
      // The approver: allows the spawn once it is asked (its request is what a leak would copy).
      let approved = 0;
      const approver = (async () => {
        const until = Date.now() + 60_000;
        while (approved === 0 && Date.now() < until) {
          const { approvals } = (await (await fetch(`${gateway.url}/approvals`)).json()) as {
            approvals: { id: string }[];
          };
          for (const pending of approvals) {
            const answer = await fetch(`${gateway.url}/approvals/${encodeURIComponent(pending.id)}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ decision: 'allow' }),
            });
            if (answer.ok) approved++;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused-on-loopback', maxRetries: 0 });
      const attachments = [
        { name: 'notes.txt', content: MARKER },
        { name: 'data.bin', content: ENCODED, encoding: 'base64', mimeType: 'application/octet-stream' },
      ];
      const content = `tool search qa steps ${JSON.stringify([{ tool: 'sessions_spawn', args: { task: 'read the attached notes', attachments } }])}`;
      const completion = await client.chat.completions.create(
        { model: 'mock-model', messages: [{ role: 'user', content }] },
        { headers: { 'x-session-id': 'redaction-requester' } },
      );
      await approver;
      expect(approved).toBe(1);
      const answer = completion.choices[0]?.message.content ?? '';
      const spawned = JSON.parse(answer.slice(answer.indexOf('{'))) as {
        sessionId: string;
        attachments: { count: number; relDir: string };
      };
      expect(spawned.attachments.count).toBe(2);
      childSessionId = spawned.sessionId;
      // The files were written (the content went where it belongs).
      const { relDir } = spawned.attachments;
      expect(readFileSync(join(base, 'workspace', relDir, 'notes.txt'), 'utf8')).toBe(MARKER);
      // The sub-agent's first turn runs in the background (a loaded machine takes a while): wait for its log.
      const until = Date.now() + 60_000;
      while (
        !files(join(base, 'logs')).some((file) =>
          readFileSync(file, 'utf8').includes(`"sessionId":"${childSessionId}"`),
        ) &&
        Date.now() < until
      ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await gateway.stop('SIGTERM'); // shutdown flushes the OTLP export
    }

    const logs = files(join(base, 'logs'));
    const lines = logs.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ file, line, entry: JSON.parse(line) })),
    );
    // The logs are there and saw the spawn, the approval and the child's run.
    expect(
      lines.some(({ entry }) => entry.type === 'tool-call' && entry.name === 'sessions_spawn' && entry.status === 'ok'),
    ).toBe(true);
    expect(lines.some(({ entry }) => entry.type === 'event' && entry.event === 'approval')).toBe(true);
    expect(lines.some(({ entry }) => entry.sessionId === childSessionId)).toBe(true);
    const leaks = lines.filter(
      ({ entry, line }) =>
        !usersOwnMessage(entry) && [MARKER, ENCODED, BASE64_MARKER].some((secret) => line.includes(secret)),
    );
    expect(leaks.map(({ file, line }) => `${file}: ${line.slice(0, 300)}`)).toEqual([]);
    // The approval's record keeps the call's shape, the content replaced.
    const approval = lines.find(({ entry }) => entry.type === 'event' && entry.event === 'approval')!.entry;
    expect(approval.data.record.request.args.attachments).toEqual([
      { name: 'notes.txt', content: `[redacted: ${MARKER.length} characters]` },
      {
        name: 'data.bin',
        content: `[redacted: ${ENCODED.length} characters]`,
        encoding: 'base64',
        mimeType: 'application/octet-stream',
      },
    ]);

    const exported = collector.bodies.join('\n');
    expect(exported).toContain('tool_search.call');
    for (const secret of [MARKER, ENCODED, BASE64_MARKER]) expect(exported).not.toContain(secret);
  }, 120_000);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { cli, folder } from './helpers.js';

const CONFIG = `// operator's notes: keep me
{
  plugins: { core: {} }, // the default workspace: a folder of its own beside this file
  tools: { alsoAllow: ["gateway"], toolSearch: false }, // direct mode to start with; the gateway tool named
  gateway: { sessions: { dir: "state/sessions" } },
}
`;

interface Started {
  url: string;
  stderr: () => string;
  stop: () => Promise<number>;
}
const running: Started[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
});

/** `tool-search gateway` in this process (a real process: SIGUSR1 reaches it), resolved once it printed its URL. */
async function startGateway(cwd: string): Promise<Started> {
  const controller = new AbortController();
  let stdout = '';
  let stderr = '';
  let printed: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (printed = resolve));
  const exit = runCli(['gateway', '--provider-mode', 'mock-openai', '--port', '0', '--approvals', 'http'], {
    stdout: {
      write: (text: string) => (
        (stdout += text), /http:\/\/\S+\/v1/.test(stdout) && printed(/http:\/\/\S+\/v1/.exec(stdout)![0])
      ),
    },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    signal: controller.signal,
  });
  const first = await Promise.race([url, exit.then((code) => `exited ${code}: ${stderr}`)]);
  if (!first.startsWith('http')) throw new Error(first);
  const started = { url: first, stderr: () => stderr, stop: () => (controller.abort(), exit) };
  running.push(started);
  return started;
}

/** Every change through the gateway tool needs an approval: the operator (this test) allows each one asked while `work` runs. */
async function approving<T>(url: string, work: Promise<T>): Promise<T> {
  let done = false;
  const answered = (async () => {
    while (!done) {
      // While the gateway restarts nothing answers: poll again after the pause.
      const listing = await fetch(`${url}/approvals`)
        .then((response) => response.json() as Promise<{ approvals: { id: string }[] }>)
        .catch(() => ({ approvals: [] }));
      for (const { id } of listing.approvals)
        await fetch(`${url}/approvals/${id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ decision: 'allow' }),
        }).catch(() => undefined); // the gateway went down between the listing and the answer: it asks again after
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    return await work;
  } finally {
    done = true;
    await answered;
  }
}

async function steps(url: string, list: unknown[], sessionId?: string): Promise<Record<string, any>> {
  const client = new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 });
  const headers = sessionId ? { headers: { 'x-session-id': sessionId } } : {};
  const completion = await approving(
    url,
    client.chat.completions.create(
      { model: 'mock-model', messages: [{ role: 'user', content: `tool search qa steps ${JSON.stringify(list)}` }] },
      headers,
    ),
  );
  const text = completion.choices[0]?.message.content ?? '';
  const last = text.replace(/^Steps done\. Last result: /, '');
  try {
    return JSON.parse(last) as Record<string, any>;
  } catch {
    return { text: last };
  }
}

/** The exposure mode the gateway serves now (read from a turn's `tool_search` field). */
async function modeOf(url: string): Promise<string> {
  const client = new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: 'mock-model',
    messages: [{ role: 'user', content: 'hello' }],
  });
  return (completion as unknown as { tool_search: { mode: string } }).tool_search.mode;
}

/** Polls with a generous deadline (a loaded machine restarts slowly). */
async function eventually(
  check: () => Promise<boolean>,
  what: string,
  log: () => string,
  deadlineMs = 60_000,
): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // the gateway is between instances: try again
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; the gateway said:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the gateway tool in tool-search gateway', () => {
  it('config.patch through the tool: the gateway restarts in-process (SIGUSR1) and serves the new config, comments kept', async () => {
    const cwd = folder({ 'tool-search.json': CONFIG });
    const gateway = await startGateway(cwd);
    expect(await modeOf(gateway.url)).toBe('direct');
    const got = await steps(gateway.url, [{ tool: 'gateway', args: { action: 'config.get' } }]);
    const patched = await steps(gateway.url, [
      {
        tool: 'gateway',
        args: {
          action: 'config.patch',
          baseHash: got.hash,
          raw: '{ tools: { toolSearch: { mode: "tools" } } }',
          note: 'now in tools mode',
        },
      },
    ]);
    // The reply came back before the restart (delayMs 2000 by default), and says what happens next.
    expect(patched).toMatchObject({
      ok: true,
      changedPaths: ['tools.toolSearch'],
      restart: { scheduled: true, delayMs: 2000, signal: 'SIGUSR1' },
    });
    const text = readFileSync(join(cwd, 'tool-search.json'), 'utf8');
    expect(text).toContain("// operator's notes: keep me");
    expect(text).toContain('// direct mode to start with');
    await eventually(
      async () => (await modeOf(gateway.url)) === 'tools',
      'the restarted gateway to serve tools mode',
      gateway.stderr,
    );
    expect(gateway.stderr()).toContain('restarting in-process (SIGUSR1: config.patch)');
    // Same URL, same process; it knows it restarted, and sessions outlived the restart.
    const after = await steps(gateway.url, [
      { tool: 'tool_call', args: { id: 'core:core:gateway', args: { action: 'config.get' } } },
    ]);
    expect(after.lastRestart).toMatchObject({ reason: 'config.patch', note: 'now in tools mode', count: 1 });
  }, 120_000);

  it('a bad patch is refused, the file is unchanged and the gateway does not restart', async () => {
    const cwd = folder({ 'tool-search.json': CONFIG });
    const gateway = await startGateway(cwd);
    const refused = await steps(gateway.url, [
      {
        tool: 'gateway',
        args: { action: 'config.patch', raw: '{ tools: { toolSearch: { mode: "telepathy" } } }', delayMs: 0 },
      },
    ]);
    expect(JSON.stringify(refused)).toContain('CONFIG_INVALID');
    const unknownPlugin = await steps(gateway.url, [
      {
        tool: 'gateway',
        args: { action: 'config.patch', raw: '{ plugins: { "./missing-plugin.js": {} } }', delayMs: 0 },
      },
    ]);
    expect(unknownPlugin.ok).not.toBe(true);
    expect(readFileSync(join(cwd, 'tool-search.json'), 'utf8')).toBe(CONFIG);
    expect(await modeOf(gateway.url)).toBe('direct');
    expect(gateway.stderr()).not.toContain('restarting');
  }, 120_000);

  it('an external SIGUSR1 restarts in-process too, and a broken file keeps the previous config serving', async () => {
    const cwd = folder({ 'tool-search.json': CONFIG });
    const gateway = await startGateway(cwd);
    // Edited behind the gateway's back into something that does not load: the restart is refused, the gateway keeps serving.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(cwd, 'tool-search.json'), '{ tools: { toolSearch: { mode: "nope" } } }');
    process.kill(process.pid, 'SIGUSR1');
    await eventually(async () => gateway.stderr().includes('restart refused'), 'the refused restart', gateway.stderr);
    expect(await modeOf(gateway.url)).toBe('direct');
    writeFileSync(
      join(cwd, 'tool-search.json'),
      CONFIG.replace('toolSearch: false', 'toolSearch: { mode: "directory" }'),
    );
    process.kill(process.pid, 'SIGUSR1');
    await eventually(
      async () => (await modeOf(gateway.url)) === 'directory',
      'the restarted gateway to serve directory mode',
      gateway.stderr,
    );
  }, 120_000);

  it('commands.restart: false refuses the restart action and ignores a bare SIGUSR1; config writes still restart', async () => {
    const cwd = folder({
      'tool-search.json': CONFIG.replace('gateway: {', 'commands: { restart: false }, gateway: {'),
    });
    const gateway = await startGateway(cwd);
    const refused = await steps(gateway.url, [{ tool: 'gateway', args: { action: 'restart', delayMs: 0 } }]);
    expect(JSON.stringify(refused)).toContain('GATEWAY_RESTART_DISABLED');
    process.kill(process.pid, 'SIGUSR1');
    await eventually(
      async () => gateway.stderr().includes('SIGUSR1 ignored: commands.restart is false'),
      'the ignored signal',
      gateway.stderr,
    );
    expect(gateway.stderr()).not.toContain('restarting');
    const patched = await steps(gateway.url, [
      {
        tool: 'gateway',
        args: { action: 'config.patch', raw: '{ tools: { toolSearch: { mode: "tools" } } }', delayMs: 0 },
      },
    ]);
    expect(patched.restart).toMatchObject({ scheduled: true });
    await eventually(
      async () => (await modeOf(gateway.url)) === 'tools',
      'the restarted gateway to serve tools mode',
      gateway.stderr,
    );
  }, 120_000);

  /** The session's transcript, read through its own sessions_history. */
  const history = async (url: string, sessionId: string) =>
    (await steps(url, [{ tool: 'sessions_history', args: { limit: 200 } }], sessionId)).messages as {
      role: string;
      content: string | null;
    }[];

  it('config.apply wakes the session that asked once the restart finished: it gets the result as a turn and answers', async () => {
    const cwd = folder({ 'tool-search.json': CONFIG });
    const gateway = await startGateway(cwd);
    const got = await steps(gateway.url, [{ tool: 'gateway', args: { action: 'config.get' } }], 'asker');
    const raw = CONFIG.replace('toolSearch: false', 'toolSearch: { mode: "directory" }');
    const applied = await steps(
      gateway.url,
      [
        {
          tool: 'gateway',
          args: { action: 'config.apply', raw, baseHash: got.hash, delayMs: 0, note: 'directory mode now' },
        },
      ],
      'asker',
    );
    expect(applied).toMatchObject({ ok: true, restart: { scheduled: true } });
    // The woken turn: the note, then the agent's answer to it (the mock model's reply), in the asking session only.
    let messages: { role: string; content: string | null }[] = [];
    await eventually(
      async () => {
        messages = await history(gateway.url, 'asker');
        const note = messages.findIndex(
          (m) => m.role === 'user' && m.content?.startsWith('[gateway restart finished]'),
        );
        return note >= 0 && messages.slice(note + 1).some((m) => m.role === 'assistant');
      },
      'the asking session to be woken',
      gateway.stderr,
    );
    const note = messages.find((m) => m.content?.startsWith('[gateway restart finished]'))!.content!;
    expect(note).toContain('Status: ok');
    expect(note).toContain(`after config.apply and serves the config ${applied.hash}; restart #1`);
    expect(note).toContain('Note: directory mode now');
    expect(gateway.stderr()).toContain('session asker woken after the restart');
    const other = await history(gateway.url, 'bystander');
    expect(JSON.stringify(other)).not.toContain('gateway restart finished');
  }, 120_000);

  it('a restart refused after the write (the file broke meanwhile) wakes the asking session with the error', async () => {
    const cwd = folder({ 'tool-search.json': CONFIG });
    const gateway = await startGateway(cwd);
    const applied = await steps(
      gateway.url,
      [
        {
          tool: 'gateway',
          args: {
            action: 'config.apply',
            raw: CONFIG.replace('toolSearch: false', 'toolSearch: { mode: "tools" }'),
            delayMs: 1500,
          },
        },
      ],
      'asker',
    );
    expect(applied).toMatchObject({ ok: true, restart: { scheduled: true, delayMs: 1500 } });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(cwd, 'tool-search.json'), '{ tools: { toolSearch: { mode: "nope" } } }');
    let note: string | undefined;
    await eventually(
      async () => {
        note =
          (await history(gateway.url, 'asker')).find((m) => m.content?.startsWith('[gateway restart finished]'))
            ?.content ?? undefined;
        return note !== undefined;
      },
      'the refused restart to wake the asking session',
      gateway.stderr,
    );
    expect(note).toContain('Status: error');
    expect(note).toContain('the restart after config.apply was refused');
    expect(note).toContain('still serves the previous config');
    expect(await modeOf(gateway.url)).toBe('direct');
  }, 120_000);

  it('tools list (no gateway runs) does not list it, and says why', async () => {
    const { code, stdout } = await cli(['tools', 'list', '--json'], folder({ 'tool-search.json': CONFIG }));
    expect(code).toBe(0);
    const listed = JSON.parse(stdout) as {
      tools: { name: string }[];
      diagnostics?: { toolId?: string; message: string }[];
    };
    expect(listed.tools.map((t) => t.name)).not.toContain('gateway');
    expect(JSON.stringify(listed)).toContain('gateway is not listed');
  });
});

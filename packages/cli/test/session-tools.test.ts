import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { cli, folder } from './helpers.js';

const SESSION_TOOLS = [
  'agents_list',
  'session_status',
  'sessions_history',
  'sessions_list',
  'sessions_send',
  'sessions_spawn',
];
const config = () =>
  folder({
    'tool-search.json':
      '{ plugins: { core: {} }, tools: { toolSearch: false, sessions: { visibility: "tree" } }, gateway: { sessions: { dir: "state/sessions" } } }',
  });

describe('the session tools in the CLI', () => {
  it('tools list (no gateway) does not list them', async () => {
    const { code, stdout } = await cli(['tools', 'list', '--json'], config());
    expect(code).toBe(0);
    const names = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toContain('read');
    expect(names.filter((n) => [...SESSION_TOOLS, 'cron'].includes(n))).toEqual([]);
  });

  it('tool-search gateway lists them, runs a spawned sub-agent through its own turn loop and keeps cron jobs beside the session logs', async () => {
    const cwd = config();
    const controller = new AbortController();
    let stdout = '';
    let stderr = '';
    let printed: (url: string) => void = () => {};
    const url = new Promise<string>((resolve) => (printed = resolve));
    const exit = runCli(['gateway', '--provider-mode', 'mock-openai', '--port', '0'], {
      stdout: {
        write: (text: string) => (
          (stdout += text), /http:\/\/\S+\/v1/.test(stdout) && printed(/http:\/\/\S+\/v1/.exec(stdout)![0])
        ),
      },
      stderr: { write: (text: string) => (stderr += text) },
      cwd,
      signal: controller.signal,
    });
    const started = await Promise.race([url, exit.then((code) => `exited ${code}: ${stderr}`)]);
    expect(started).toMatch(/^http/);
    try {
      const client = new OpenAI({ baseURL: started, apiKey: 'unused', maxRetries: 0 });
      const message = `tool search qa steps ${JSON.stringify([
        {
          tool: 'cron',
          args: {
            action: 'add',
            job: {
              name: 'daily',
              schedule: { kind: 'cron', expr: '0 9 * * *' },
              payload: { kind: 'agentTurn', message: 'standup' },
            },
          },
        },
        { tool: 'sessions_spawn', args: { task: 'hello', label: 'kid' } },
        { tool: 'sessions_send', args: { sessionId: '{{sessionId}}', message: 'again', timeoutSeconds: 60 } },
      ])}`;
      const completion = await client.chat.completions.create({
        model: 'mock-model',
        messages: [{ role: 'user', content: message }],
      });
      const last = JSON.parse(
        (completion.choices[0]?.message.content ?? '').replace(/^Steps done\. Last result: /, ''),
      ) as { status: string; reply: string };
      expect(last).toMatchObject({ status: 'ok', reply: 'Mock model: no script found in the last user message.' });
      const jobs = JSON.parse(readFileSync(join(cwd, 'state', 'cron', 'jobs.json'), 'utf8')) as {
        jobs: { name: string }[];
      };
      expect(jobs.jobs.map((j) => j.name)).toEqual(['daily']);
    } finally {
      controller.abort();
      expect(await exit).toBe(0);
    }
  });
});

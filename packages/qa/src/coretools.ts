/**
 * End-to-end scenarios over the real core tools (`plugins.core`), through the
 * gateway's HTTP endpoint and the scripted provider:
 * - coding: the `coding` profile; the model reads a file, edits it and runs a
 *   command in the sandbox, and the file on disk and the output show it.
 * - poll loop: the model starts a silent background command and polls it;
 *   loop detection's `knownPollNoProgress` blocks the polls at the critical
 *   threshold (and with that detector off, nothing is blocked).
 * - exec approval: a command off the allowlist goes to the gateway's
 *   approver (`ask: "on-miss"`); "deny" blocks it, "allow" runs it.
 */
import { chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolSearchConfig } from '@tool-search/config';
import type { RecordedRequest } from '@tool-search/mock-openai';
import { driveLane, withProvider, type SuiteResult } from './suite.js';

export interface CoreToolsScenarioResult {
  readonly scenario: 'core-tools-coding' | 'core-tools-poll-loop' | 'core-tools-exec-approval';
  readonly assertions: SuiteResult['assertions'];
  readonly ok: boolean;
}

type Assertion = { name: string; ok: boolean; detail?: string };

const steps = (list: readonly object[]) => `tool search qa steps ${JSON.stringify(list)}`;

export async function runCodingScenario(): Promise<CoreToolsScenarioResult> {
  return withWorkspace(async (workspace) => {
    await writeFile(join(workspace, 'greet.js'), "export const greeting = 'hello';\n");
    await writeFile(
      join(workspace, 'check.js'),
      "import { greeting } from './greet.js';\nconsole.log(`greeting: ${greeting}`);\n",
    );
    const config: ToolSearchConfig = {
      plugins: { core: { workspace } },
      tools: { profile: 'coding', toolSearch: false, exec: { allowlist: ['node'] } },
    };
    const message = steps([
      { tool: 'read', args: { path: 'greet.js' } },
      { tool: 'edit', args: { path: 'greet.js', oldText: "'hello'", newText: "'hello, world'" } },
      { tool: 'exec', args: { command: 'node check.js' } },
    ]);
    const driven = await withProvider((provider, logDir) =>
      driveLane({ provider, logDir, lane: 'direct', config, message, maxSteps: 8 }),
    );
    const declared = declaredNames(driven.received[0]);
    const results = toolMessages(driven.received[driven.received.length - 1]);
    const calls = driven.summary.toolsCalled.map((c) => `${c.id}:${c.status}`);
    const out: Assertion[] = [
      check(
        'the coding profile exposes the real file and runtime tools',
        ['edit', 'exec', 'process', 'read', 'write'].every((n) => declared.includes(n)),
        declared.join(','),
      ),
      check(
        'read, edit and exec ran, in that order',
        calls.join(' ') === 'core:core:read:ok core:core:edit:ok core:core:exec:ok',
        calls.join(' '),
      ),
      check('read returned the file', results[0]?.includes("export const greeting = 'hello';") === true, results[0]),
      check(
        'the edit is on disk',
        (await readFile(join(workspace, 'greet.js'), 'utf8')) === "export const greeting = 'hello, world';\n",
      ),
      check(
        'the command ran in the sandbox and saw the edit',
        results[2]?.includes('greeting: hello, world') === true && results[2].includes('[exit code 0]'),
        results[2],
      ),
      check(
        'the final answer carries the command output',
        driven.finalAnswer.includes('greeting: hello, world'),
        driven.finalAnswer,
      ),
    ];
    return { scenario: 'core-tools-coding', assertions: out, ok: out.every((a) => a.ok) };
  });
}

export async function runPollLoopScenario(): Promise<CoreToolsScenarioResult> {
  const loopDetection = { enabled: true, warningThreshold: 2, criticalThreshold: 4, globalCircuitBreakerThreshold: 50 };
  const message = steps([
    { tool: 'exec', args: { command: 'sleep 30', background: true } },
    { tool: 'process', args: { action: 'poll', sessionId: '{{sessionId}}' }, repeat: 6 },
    { tool: 'process', args: { action: 'kill', sessionId: '{{sessionId}}' } },
  ]);
  const out: Assertion[] = [];
  for (const detectorOn of [true, false]) {
    await withWorkspace(async (workspace) => {
      const config: ToolSearchConfig = {
        plugins: { core: { workspace } },
        tools: {
          profile: 'coding',
          toolSearch: false,
          exec: { allowlist: ['sleep'] },
          loopDetection: { ...loopDetection, detectors: { knownPollNoProgress: detectorOn } },
        },
      };
      const driven = await withProvider((provider, logDir) =>
        driveLane({ provider, logDir, lane: 'direct', config, message, maxSteps: 12 }),
      );
      const polls = driven.summary.toolsCalled
        .filter((c) => c.id === 'core:core:process')
        .slice(0, 6)
        .map((c) => c.status);
      const results = toolMessages(driven.received[driven.received.length - 1]);
      if (detectorOn) {
        const first = polls.indexOf('blocked');
        out.push(
          check(
            'real polls of a silent background command are blocked at the critical threshold',
            first === loopDetection.criticalThreshold - 1 && polls.slice(0, first).every((s) => s === 'ok'),
            polls.join(','),
          ),
        );
        out.push(
          check(
            'the block names knownPollNoProgress',
            results.some((r) => r.includes('knownPollNoProgress')),
            results.find((r) => r.includes('Loop')),
          ),
        );
      } else {
        out.push(
          check(
            'with knownPollNoProgress off, the same polls all run',
            polls.length === 6 && polls.every((s) => s === 'ok'),
            polls.join(','),
          ),
        );
      }
    });
  }
  return { scenario: 'core-tools-poll-loop', assertions: out, ok: out.every((a) => a.ok) };
}

export async function runExecApprovalScenario(): Promise<CoreToolsScenarioResult> {
  const out: Assertion[] = [];
  for (const answer of ['deny', 'allow'] as const) {
    await withWorkspace(async (workspace) => {
      await writeFile(join(workspace, 'build.log'), 'old\n');
      const config: ToolSearchConfig = {
        plugins: { core: { workspace } },
        tools: { profile: 'coding', toolSearch: false, exec: { allowlist: ['ls'] } },
      };
      const message = steps([
        { tool: 'exec', args: { command: 'ls' } },
        { tool: 'exec', args: { command: 'rm build.log' } },
      ]);
      const driven = await withProvider((provider, logDir) =>
        driveLane({ provider, logDir, lane: 'direct', config, message, approve: answer, maxSteps: 6 }),
      );
      const statuses = driven.summary.toolsCalled.map((c) => c.status).join(',');
      const asked = driven.approvals.map((a) => `${a.name}: ${a.reason}`);
      const removed = !(await readFile(join(workspace, 'build.log'), 'utf8').then(
        () => true,
        () => false,
      ));
      out.push(
        check(
          `only the command off the allowlist is asked about (${answer})`,
          asked.length === 1 && asked[0]!.includes('"rm" is not on tools.exec.allowlist'),
          asked.join(' | '),
        ),
      );
      out.push(
        answer === 'deny'
          ? check('"deny" blocks it and the file stays', statuses === 'ok,blocked' && !removed, statuses)
          : check('"allow" runs it', statuses === 'ok,ok' && removed, statuses),
      );
    });
  }
  return { scenario: 'core-tools-exec-approval', assertions: out, ok: out.every((a) => a.ok) };
}

async function withWorkspace<T>(fn: (workspace: string) => Promise<T>): Promise<T> {
  const workspace = realpathSync(await mkdtemp(join(tmpdir(), 'tool-search-core-e2e-')));
  // A root gateway runs sandboxed commands as uid 65534: the workspace is that user's, as the preset's default one is.
  if (process.geteuid?.() === 0) await chown(workspace, 65534, 65534);
  try {
    return await fn(workspace);
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

function declaredNames(request: RecordedRequest | undefined): string[] {
  const body = (request?.body ?? {}) as { tools?: { function?: { name?: string } }[] };
  return (body.tools ?? []).map((t) => t.function?.name ?? '');
}

/** The tool messages the provider received in a request, in order. */
function toolMessages(request: RecordedRequest | undefined): string[] {
  const body = (request?.body ?? {}) as { messages?: { role?: string; content?: unknown }[] };
  return (body.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

function check(name: string, ok: boolean, detail?: string): Assertion {
  return { name, ok, ...(detail !== undefined && !ok ? { detail: detail.slice(0, 500) } : {}) };
}

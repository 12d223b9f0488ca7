/**
 * Pieces of the gateway-replicas scenario: a config file for `tool-search
 * gateway` replicas (a workspace, the scripted provider, small loop-detection
 * thresholds, `write` behind approval, and Redis when given), two replicas
 * started on it, and one scripted chat turn over HTTP. The mock provider
 * calls the listed tools in order (`tool search qa steps [...]`).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReplicaSet, type ReplicaSet } from './replicas.js';

/** The CLI's build output: replica tests need `npm run build` first. */
export function cliBuilt(): boolean {
  return existsSync(fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url)));
}

export const LOOP_THRESHOLDS = {
  enabled: true,
  warningThreshold: 2,
  criticalThreshold: 3,
  globalCircuitBreakerThreshold: 5,
  historySize: 10,
} as const;

export interface ReplicaSetup {
  readonly dir: string;
  readonly workspace: string;
  readonly config: string;
}

/** A temp folder with a workspace (holding `notes.txt`) and `tool-search.json`; `redisUrl` shares state. */
export async function writeReplicaConfig(providerURL: string, redisUrl?: string): Promise<ReplicaSetup> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'tool-search-replicas-')));
  const workspace = join(dir, 'workspace');
  await mkdir(workspace);
  await writeFile(join(workspace, 'notes.txt'), 'the notes\n');
  const config = join(dir, 'tool-search.json');
  const body = {
    plugins: { core: { workspace } },
    provider: { baseURL: providerURL, apiKey: 'mock', model: 'mock-model' },
    tools: { toolSearch: false, loopDetection: LOOP_THRESHOLDS, approvals: { require: ['write'], timeoutMs: 30_000 } },
    ...(redisUrl ? { state: { redis: { url: redisUrl, commandTimeoutMs: 500 } } } : {}),
  };
  await writeFile(config, JSON.stringify(body, null, 2));
  return { dir, workspace, config };
}

/** Replicas `a` and `b` of `tool-search gateway` on one config (direct mode, approvals over HTTP), behind a balancer. */
export function startGatewayReplicas(setup: ReplicaSetup): Promise<ReplicaSet> {
  const args = ['gateway', '--config', setup.config, '--mode', 'direct', '--approvals', 'http'];
  return startReplicaSet(['a', 'b'], () => ({
    args,
    cwd: setup.dir,
    env: { TOOL_SEARCH_STATE_DIR: join(setup.dir, 'state') },
  }));
}

export interface TurnReply {
  readonly status: number;
  readonly content: string;
  readonly toolCalls: readonly { readonly name: string; readonly status: string }[];
}

/** One chat turn in `sessionId` whose scripted model calls `steps` in order; bounded by `timeoutMs`. */
export async function scriptedTurn(
  baseURL: string,
  sessionId: string,
  steps: readonly object[],
  timeoutMs = 20_000,
): Promise<TurnReply> {
  const response = await fetch(`${baseURL}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-id': sessionId },
    body: JSON.stringify({
      model: 'mock-model',
      messages: [{ role: 'user', content: `tool search qa steps ${JSON.stringify(steps)}` }],
    }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await response.json()) as {
    choices?: { message?: { content?: string } }[];
    tool_search?: { tool_calls?: { name: string; status: string }[] };
  };
  return {
    status: response.status,
    content: body.choices?.[0]?.message?.content ?? JSON.stringify(body),
    toolCalls: body.tool_search?.tool_calls ?? [],
  };
}

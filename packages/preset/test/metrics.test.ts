/**
 * `GET /metrics` on the gateway: a real gateway (`runGateway`, as the CLI calls it) over the mock provider, one turn
 * with the official client that searches and calls, then the Prometheus text the gateway serves, behind the same
 * loopback rules as every other route; the same on `serve mcp --http` with the MCP client. Then the README's Kubernetes example, checked against the same gateway.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseConfig, validateConfig, type ToolSearchConfig } from '@tool-search/config';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { runGateway, serveMcp, type ListeningGateway } from '@tool-search/preset';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

let mock: Awaited<ReturnType<typeof startMockOpenAI>>;
let gateway: ListeningGateway;
const stop = new AbortController();
let done: Promise<void>;

beforeAll(async () => {
  mock = await startMockOpenAI();
  const config = {
    provider: { baseURL: mock.url, apiKey: 'mock', model: 'mock-model' },
    tools: { toolSearch: { mode: 'tools' } },
  } as ToolSearchConfig;
  const listening: ListeningGateway[] = [];
  let failed: unknown;
  done = runGateway({
    load: async () => ({ config }),
    port: 0,
    signal: stop.signal,
    onListening: (g) => void listening.push(g),
  });
  done.catch((error: unknown) => (failed = error));
  const until = Date.now() + 60_000;
  while (listening.length === 0 && failed === undefined && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 20));
  if (failed) throw failed;
  gateway = listening[0]!;
}, 120_000);

afterAll(async () => {
  stop.abort();
  await done;
  await mock?.close();
});

function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The value of one sample line (`name{labels} value`), by name and the labels it must carry. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const has = Object.entries(labels).every(([key, value]) => match[2]?.split(',').includes(`${key}="${value}"`));
    if (has) return Number(match[3]);
  }
  return undefined;
}

describe('GET /metrics on the gateway', () => {
  it('counts a turn, its tool calls by status and its search latency, in the Prometheus text format', async () => {
    const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused-on-loopback', maxRetries: 0 });
    const steps = [
      { tool: 'tool_search', args: { query: 'weather forecast' } },
      { tool: 'tool_call', args: { name: 'no_such_tool', args: {} } },
    ];
    await client.chat.completions.create({
      model: 'mock-model',
      messages: [{ role: 'user', content: `tool search qa steps ${JSON.stringify(steps)}` }],
    });
    const metrics = await get(`${new URL(gateway.url).origin}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = metrics.body;
    // Every line is a comment (# HELP / # TYPE), a sample or a blank between families: the exposition format.
    for (const line of text.trim().split('\n').filter(Boolean))
      expect(line).toMatch(
        /^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+|[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? -?[0-9.e+-]+|NaN)$/,
      );
    expect(sample(text, 'tool_search_turns_total', { front_end: 'gateway' })).toBe(1);
    expect(sample(text, 'tool_search_tool_calls_total', { source: 'control', status: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'tool_search_search_duration_seconds_count', { origin: 'tool_call' })).toBe(1);
    expect(sample(text, 'tool_search_search_duration_seconds_bucket', { origin: 'tool_call', le: '+Inf' })).toBe(1);
    expect(sample(text, 'tool_search_catalog_tools')).toBeGreaterThan(0);
    expect(sample(text, 'tool_search_catalog_generation')).toBe(1);
    expect(sample(text, 'tool_search_catalog_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'tool_search_state_up', { kind: 'memory' })).toBe(1);
    // The session host's sessions (agent sessions: spawned, cron); a plain HTTP turn opens none.
    expect(sample(text, 'tool_search_sessions')).toBe(0);
  }, 60_000);

  it('is behind the keyless loopback rules: a foreign Host is refused', async () => {
    const refused = await get(`${new URL(gateway.url).origin}/metrics`, { Host: 'attacker.example' });
    expect(refused.status).toBe(403);
    expect(refused.body).not.toContain('tool_search_turns_total');
  });
});

/** `docs/k8s/tool-search.yaml`, the README's "Running a fleet" example: the Kubernetes shapes that matter. */
describe('the Kubernetes example', () => {
  const file = fileURLToPath(new URL('../../../docs/k8s/tool-search.yaml', import.meta.url));
  const docs: any[] = parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => doc.toJS());
  const byKind = (kind: string) => docs.filter((doc) => doc.kind === kind);
  const gatewayDeployment = () => byKind('Deployment').find((doc) => doc.metadata.name === 'tool-search');
  const containerPort = (deployment: any, port: string | number) =>
    deployment.spec.template.spec.containers
      .flatMap((container: any) => container.ports ?? [])
      .find((p: any) => p.name === port || p.containerPort === port)?.containerPort as number | undefined;

  it('every document has a known apiVersion for its kind and a DNS-label name', () => {
    const API: Record<string, string> = { ConfigMap: 'v1', Service: 'v1', Deployment: 'apps/v1' };
    expect(docs.map((doc) => doc.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Deployment', 'Service', 'Service']);
    for (const doc of docs) {
      expect(doc.apiVersion, doc.kind).toBe(API[doc.kind]);
      expect(doc.metadata?.name).toMatch(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
    }
  });

  it('each Deployment selects its own pods, and each Service reaches a named container port of them', () => {
    for (const deployment of byKind('Deployment')) {
      const labels = deployment.spec.template.metadata.labels;
      expect(labels).toMatchObject(deployment.spec.selector.matchLabels);
      for (const container of deployment.spec.template.spec.containers) {
        expect(container.name).toMatch(/^[a-z0-9-]+$/);
        expect(typeof container.image).toBe('string');
        for (const port of container.ports ?? []) {
          expect(port.containerPort).toBeGreaterThan(0);
          expect(port.name.length).toBeLessThanOrEqual(15);
        }
      }
    }
    for (const service of byKind('Service')) {
      const target = byKind('Deployment').find((d) =>
        Object.entries(service.spec.selector).every(([k, v]) => d.spec.template.metadata.labels[k] === v),
      );
      expect(target, service.metadata.name).toBeDefined();
      for (const port of service.spec.ports) expect(containerPort(target, port.targetPort)).toBeDefined();
    }
  });

  it('the config in the ConfigMap is a valid config that listens on the container port and names the Redis Service', () => {
    const map = byKind('ConfigMap')[0];
    const deployment = gatewayDeployment();
    const container = deployment.spec.template.spec.containers[0];
    const mount = container.volumeMounts.find((m: any) => m.name === 'config').mountPath;
    const volume = deployment.spec.template.spec.volumes.find((v: any) => v.name === 'config');
    expect(volume.configMap.name).toBe(map.metadata.name);
    const file = container.command[container.command.indexOf('--config') + 1] as string;
    expect(file.startsWith(`${mount}/`)).toBe(true);
    const config = validateConfig(parseConfig(map.data[file.slice(mount.length + 1)]));
    expect(config.gateway?.port).toBe(containerPort(deployment, 'http'));
    const redis = new URL(config.state!.redis!.url);
    const redisService = byKind('Service').find((s) => s.metadata.name === redis.hostname);
    expect(redisService?.spec.ports[0].port).toBe(Number(redis.port));
    // Keys come from the Secret through the environment the config names.
    const envNames = container.env.map((e: any) => e.name);
    expect(envNames).toEqual(expect.arrayContaining([config.provider!.apiKeyEnv, config.auth!.keys![0]!.env]));
  });

  it('the probes target the container port and paths the gateway answers 200 on', async () => {
    const deployment = gatewayDeployment();
    const container = deployment.spec.template.spec.containers[0];
    expect(containerPort(deployment, container.livenessProbe.tcpSocket.port)).toBeDefined();
    const script = container.readinessProbe.exec.command[2] as string;
    const target = /http:\/\/127\.0\.0\.1:(\d+)(\/[^'"]*)/.exec(script)!;
    expect(Number(target[1])).toBe(containerPort(deployment, 'http'));
    const origin = new URL(gateway.url).origin;
    expect((await get(`${origin}${target[2]}`)).status).toBe(200);
    // The probe itself, run as the kubelet would, against this gateway: it exits 0.
    const probe = script.replace(`http://127.0.0.1:${target[1]}`, origin);
    const exit = await new Promise<number | null>((resolve) =>
      execFile(process.execPath, ['-e', probe], { env: { ...process.env, TOOL_SEARCH_API_KEY: 'unused' } }, (error) =>
        resolve(error ? (error.code as number | null) : 0),
      ),
    );
    expect(exit).toBe(0);
    // The scrape annotations name the port and the path of GET /metrics.
    const annotations = deployment.spec.template.metadata.annotations;
    expect(Number(annotations['prometheus.io/port'])).toBe(containerPort(deployment, 'http'));
    expect((await get(`${origin}${annotations['prometheus.io/path']}`)).status).toBe(200);
  });
});

describe('GET /metrics on serve mcp --http', () => {
  it('counts the runs and searches of MCP sessions, beside /mcp, behind the same loopback rules', async () => {
    const lines: string[] = [];
    const controller = new AbortController();
    let stopped = false;
    const done = serveMcp({
      config: { plugins: { 'fake-catalog': { tools: 5, core: false } }, tools: { toolSearch: { mode: 'tools' } } },
      http: 0,
      signal: controller.signal,
      log: (line) => void lines.push(line),
    }).finally(() => (stopped = true));
    try {
      const serving = () => lines.find((line) => line.includes('(Streamable HTTP)'));
      const until = Date.now() + 60_000;
      while (serving() === undefined && !stopped && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const url = /MCP server on (\S+)/.exec(serving() ?? lines.join('\n'))![1]!;
      const client = new Client({ name: 'metrics-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      await client.callTool({ name: 'tool_search', arguments: { query: 'weather forecast' } });
      const metrics = await get(`${new URL(url).origin}/metrics`);
      await client.close();
      expect(metrics.status).toBe(200);
      const text = metrics.body;
      // The warm-up run at start, then the session's run.
      expect(sample(text, 'tool_search_turns_total', { front_end: 'mcp' })).toBeGreaterThanOrEqual(2);
      expect(sample(text, 'tool_search_tool_calls_total', { source: 'control', status: 'ok' })).toBe(1);
      expect(sample(text, 'tool_search_search_duration_seconds_count', { origin: 'tool_call' })).toBe(1);
      expect(sample(text, 'tool_search_catalog_tools')).toBeGreaterThan(0);
      expect(sample(text, 'tool_search_state_up', { kind: 'memory' })).toBe(1);
      expect(sample(text, 'tool_search_sessions')).toBe(1);
      expect((await get(`${new URL(url).origin}/metrics`, { Host: 'attacker.example' })).status).toBe(403);
    } finally {
      controller.abort();
      await done;
    }
  }, 120_000);
});

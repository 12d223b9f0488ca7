/**
 * Running the official MCP conformance suite (server scenarios) against a
 * URL, the downstream fixture on HTTP, and the `tool_call` adapter: an HTTP
 * hop that rewrites each `tools/call { name, arguments }` the suite sends into
 * `tools/call { name: "tool_call", arguments: { id: name, args } }` (same
 * `_meta`, same id) and passes everything else through byte for byte, so in
 * `tools` mode every call of the suite goes through `tool_call`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const SUITE_BIN = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const SHIM = fileURLToPath(new URL('./fixtures/conformance-shim.mjs', import.meta.url));
export const CONFORMANCE_FIXTURE = fileURLToPath(new URL('./fixtures/conformance-server.mjs', import.meta.url));

export interface ScenarioResult {
  readonly passed: number;
  readonly failed: number;
}

/** `conformance server --url <url> --suite all`; returns the summary per scenario. */
export async function runServerSuite(url: string, cwd: string): Promise<Map<string, ScenarioResult>> {
  const child = spawn(process.execPath, ['--import', SHIM, SUITE_BIN, 'server', '--url', url, '--suite', 'all'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
  child.stderr.on('data', (chunk: Buffer) => (output += String(chunk)));
  await new Promise((resolve) => child.once('close', resolve));
  const results = new Map<string, ScenarioResult>();
  for (const match of output.matchAll(/^[✓✗]\s+(\S+): (\d+) passed, (\d+) failed/gmu)) {
    results.set(match[1]!, { passed: Number(match[2]), failed: Number(match[3]) });
  }
  if (results.size === 0) throw new Error(`the conformance suite printed no summary:\n${output.slice(-3000)}`);
  // CONFORMANCE_DEBUG=1: name each failing scenario and the suite's lines about it (which one failed, under load).
  if (process.env.CONFORMANCE_DEBUG) {
    for (const [name, result] of results) {
      if (!result.failed) continue;
      const lines = output.split('\n').filter((line) => line.includes(name) || /fail|error|✗/i.test(line));
      console.error(`FAILED ${name}\n${lines.slice(0, 40).join('\n')}`);
    }
  }
  return results;
}

export function passing(results: Map<string, ScenarioResult>): string[] {
  return [...results].filter(([, result]) => result.failed === 0).map(([name]) => name);
}

/** The downstream fixture on Streamable HTTP (for the direct run). */
export async function startFixtureHttp(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CONFORMANCE_FIXTURE, '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += String(chunk);
      const match = /LISTENING (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`fixture exited (${code})`)));
  });
  return { url, child };
}

/** Waits for a line on a child's stderr that contains an MCP URL (`serve mcp --http 0`). */
export function urlFromStderr(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += String(chunk);
      const match = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve mcp exited (${code}): ${err}`)));
  });
}

/** The `tool_call` hop in front of `target` (an MCP endpoint); returns its own endpoint URL. */
export async function toolCallAdapter(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const to = new URL(target);
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = chunks.length ? rewrite(Buffer.concat(chunks)) : undefined;
      const headers: IncomingHttpHeaders = {
        ...req.headers,
        ...(body ? { 'content-length': String(body.length) } : {}),
      };
      const upstream = request(
        { host: to.hostname, port: to.port, path: to.pathname, method: req.method, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

interface RpcMessage {
  method?: string;
  params?: { name?: string; arguments?: unknown; _meta?: unknown };
}

function rewrite(raw: Buffer): Buffer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return raw;
  }
  const one = (message: RpcMessage) =>
    message?.method === 'tools/call' && message.params?.name !== 'tool_call'
      ? {
          ...message,
          params: {
            ...message.params,
            name: 'tool_call',
            arguments: { id: message.params?.name, args: message.params?.arguments ?? {} },
          },
        }
      : message;
  return Buffer.from(JSON.stringify(Array.isArray(parsed) ? parsed.map(one) : one(parsed as RpcMessage)));
}

/**
 * plugin-mcp as the conformance suite's client under test: one kernel with
 * one server (the scenario's URL), listing its tools and calling each, with
 * the OAuth login, elicitation and sampling handling a real deployment would
 * configure. The "browser" of the login follows the authorization server's
 * redirect back to the loopback listener, as a user's browser would.
 * Deadlines are generous: the scenarios of a suite run at once, all of
 * them with their client in this one process, on a loaded machine too.
 */
import { createServer, type Server } from 'node:http';
import { createKernel } from '@tool-search/kernel';
import { loopbackAuthorizer, mcpPlugin, memoryTokenStore, type McpOAuthConfig } from '../../src/index.js';

/** The client ID metadata document URL the suite expects (as its reference client uses). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

const ARGUMENTS: Record<string, Record<string, unknown>> = { add_numbers: { a: 2, b: 3 } };

export async function driveScenario(
  scenario: string,
  serverUrl: string,
  contextJson: string | undefined,
): Promise<string> {
  const context = contextJson ? (JSON.parse(contextJson) as Record<string, string>) : {};
  const auth: McpOAuthConfig =
    scenario === 'auth/client-credentials-basic'
      ? { grant: 'client_credentials', clientId: context.client_id!, clientSecret: context.client_secret! }
      : context.client_id
        ? { clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) }
        : { clientMetadataUrl: CIMD_URL };
  const authorizer = loopbackAuthorizer({
    open: async (url) => void (await (await fetch(url)).text()),
    timeoutMs: 60_000,
  });
  const plugin = mcpPlugin({
    connectTimeoutMs: 60_000,
    servers: { conformance: { url: serverUrl, auth } },
    tokenStore: memoryTokenStore(),
    authorizer,
    // Accept with nothing filled in: the client applies the schema's defaults (SEP-1034).
    handlers: { elicitInput: async () => ({ action: 'accept', content: {} }) },
  });
  const kernel = createKernel({ plugins: [plugin], sourceTimeoutMs: 90_000 });
  try {
    const run = await kernel.createRun();
    const failures = run.diagnostics.filter((d) => d.level === 'error');
    if (failures.length) throw new Error(failures.map((d) => `${d.code}: ${d.message}`).join('\n'));
    const tools = run.listed.filter((tool) => tool.owner === 'conformance');
    for (const tool of tools) {
      const outcome = await run.call(tool.id, ARGUMENTS[tool.name] ?? {});
      if (outcome.status !== 'ok') throw new Error(`${tool.name}: ${JSON.stringify(outcome)}`);
    }
    return `listed ${tools.length} tools and called each`;
  } finally {
    await kernel.close();
    await authorizer.close();
  }
}

/** The HTTP endpoint relay.mjs posts to; answers `{ ok, summary | error }`. */
export async function startRelay(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += String(chunk)));
    request.on('end', () => {
      const { scenario, serverUrl, context } = JSON.parse(body) as {
        scenario: string;
        serverUrl: string;
        context?: string;
      };
      driveScenario(scenario, serverUrl, context).then(
        (summary) => response.end(JSON.stringify({ ok: true, summary })),
        (error: unknown) =>
          response.end(
            JSON.stringify({
              ok: false,
              error: error instanceof Error ? (error.stack ?? error.message) : String(error),
            }),
          ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * `tool-search inspect`: a local web page over the same runs `tools list`,
 * `tools explain`, `tools search` and `exposure` read (one kernel from the
 * config), plus the session logs and MCP server state, until SIGINT/SIGTERM
 * (or `io.signal`). Prints the page's URL as the first line of stdout.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { SessionStore } from '@tool-search/sessions';
import type { StateStore } from '@tool-search/state';
import type { CliIO } from '../io.js';
import { port } from './serving.js';
import { createCliKernel, loadCliConfig, withConfigOption, withConfigSections, type ConfigFlags } from '../options.js';
import { createCliState } from '../state.js';

interface InspectFlags extends ConfigFlags {
  readonly port?: number;
  readonly host?: string;
  readonly agent?: string;
  readonly provider?: string;
  readonly model?: string;
}

export function registerInspectCommand(program: Command, io: CliIO): void {
  withConfigOption(
    program
      .command('inspect')
      .description(
        'serve a local web page: catalog, search playground, policy explain, exposure per mode, sessions, MCP servers',
      ),
  )
    .option('--port <port>', 'port (default 0 = a free port)', port)
    .option(
      '--host <host>',
      'host (default 127.0.0.1; any other host needs auth.keys or gateway.auth.token, sent as /?key=… or a Bearer header)',
    )
    .option('--agent <id>', 'the agent the page opens on (changeable on the page)')
    .option('--provider <provider>', 'the provider the page opens on')
    .option('--model <model>', 'the model the page opens on')
    .action(async (flags: InspectFlags) => {
      await serve(flags, io);
    });
}

async function serve(flags: InspectFlags, io: CliIO): Promise<void> {
  const { config } = await loadCliConfig(flags, io);
  const [{ startInspectServer, createLiveFeed }, { StateSessionStore }] = await Promise.all([
    import('@tool-search/inspect'),
    import('@tool-search/sessions'),
  ]);
  const logDir = config.gateway?.sessions?.dir ?? config.session?.logDir;
  // Sessions in the shared store are readable only with Redis (an in-process store belongs to its gateway process).
  const state: StateStore | undefined = config.state?.redis ? await createCliState(config, io) : undefined;
  const store: SessionStore | undefined = state ? new StateSessionStore(state) : undefined;
  const live = createLiveFeed();
  // The page's own runs write no session log: it reads the logs, it is not a session.
  const kernelConfig = withConfigSections(config, { session: { ...config.session, logDir: undefined } });
  const preset = await createCliKernel(kernelConfig, io, {
    approve: null,
    onMcpToolsChanged: (server) => live.notify(server),
  }).catch(async (error: unknown) => {
    await state?.close();
    throw error;
  });
  live.source(preset.mcpServers);
  try {
    const token = config.gateway?.auth?.token;
    const server = await startInspectServer({
      kernel: preset.kernel,
      config,
      demoCatalog: preset.demoCatalog,
      host: flags.host ?? '127.0.0.1',
      port: flags.port ?? 0,
      ...(token ? { apiKeys: [token] } : {}),
      auth: (await import('@tool-search/auth')).createApiKeys(config.auth, io.env ?? process.env),
      sessions: { ...(logDir !== undefined ? { dir: resolve(io.cwd, logDir) } : {}), ...(store ? { store } : {}) },
      live,
      defaults: {
        ...(flags.agent ? { agentId: flags.agent } : {}),
        ...(flags.provider ? { provider: flags.provider } : {}),
        ...(flags.model ? { model: flags.model } : {}),
      },
    });
    try {
      // The preset's (loaded by now with the kernel), shared with the front ends it composes.
      const { stopped } = await import('@tool-search/preset');
      const stop = stopped(io.signal);
      io.stdout.write(`${server.url}\n`);
      io.stderr.write(
        `inspect: ${logDir !== undefined ? `session logs in ${resolve(io.cwd, logDir)}` : 'no session log folder (gateway.sessions.dir or session.logDir)'}${store ? ', sessions of the Redis store' : ''}${(token || config.auth?.keys?.length) && !['127.0.0.1', 'localhost', '::1'].includes(flags.host ?? '127.0.0.1') ? '; open it as <url>?key=<your API key>' : ''}; Ctrl-C stops\n`,
      );
      await stop;
    } finally {
      await server.close();
    }
  } finally {
    await preset.kernel.close();
    await state?.close();
  }
}

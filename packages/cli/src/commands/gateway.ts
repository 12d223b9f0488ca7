/**
 * `tool-search gateway`: the OpenAI-compatible gateway over a kernel built from the config, until SIGINT/SIGTERM (or
 * `io.signal`). With `--provider-mode mock-openai` the provider is the in-process mock, so it runs without a key or
 * network. The preset composes the front end (state, telemetry, approvals, sessions, cron, kernel); this parses flags.
 */
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { CliUsageError, type CliIO } from '../io.js';
import { port, stopped } from './serving.js';
import { loadCliConfig, withConfigOption, withConfigSections, type ConfigFlags } from '../options.js';
import { EXPOSURE_MODES } from './exposure.js';
import { createCliFrontEnd } from '../front-end.js';
import { mockProvider, PROVIDER_MODES, startCliGateway, type ProviderMode } from '../gateway-server.js';
import { promptApprover } from '../approvals.js';
import type { GatewayControl, RestartRecord, RestartRequest } from '@tool-search/plugin-gateway';
import { wakeSession } from '@tool-search/sessions';
import { DRAIN_MS, drained, gatewayControl, restartRecord, restartSignals, restartWakeNote, type RestartSignals } from '../gateway-restart.js';

export { MOCK_ANTHROPIC_MODEL, MOCK_PROVIDER_MODEL, PROVIDER_MODES } from '../gateway-server.js';
export const APPROVAL_MODES = ['prompt', 'http', 'deny'] as const;

interface GatewayFlags extends ConfigFlags {
  readonly port?: number;
  readonly host?: string;
  readonly providerMode: ProviderMode;
  readonly mode?: string;
  readonly approvals?: (typeof APPROVAL_MODES)[number];
}

export function registerGatewayCommand(program: Command, io: CliIO): void {
  withConfigOption(program.command('gateway').description('serve the gateway (POST /v1/chat/completions, /v1/responses, /v1/messages) until Ctrl-C'))
    .option('--port <port>', 'port (default gateway.port, else 0 = a free port)', port)
    .option('--host <host>', 'host (default gateway.host, else 127.0.0.1; other hosts need auth.keys)')
    .addOption(new Option('--provider-mode <mode>', 'provider: from the config, or an in-process mock (OpenAI or Anthropic wire format)').choices(PROVIDER_MODES).default('config'))
    .addOption(new Option('--mode <mode>', 'exposure mode for every run (default: per run, the toolSearch setting for its agent and provider/model)').choices(EXPOSURE_MODES))
    .addOption(new Option('--approvals <how>', 'who answers approvals (default: prompt on a TTY, else deny)').choices(APPROVAL_MODES))
    .action((flags: GatewayFlags) => serve(flags, io));
}

/**
 * Serves until SIGINT/SIGTERM (or `io.signal`). SIGUSR1 (the `gateway` tool's `restart`, or `kill -USR1`) restarts
 * in-process: the config is read again and checked, and only if it loads does the running gateway close and a new one
 * start from it, on the same port unless the config names another. In-process sessions and the mock provider survive
 * the restart.
 */
async function serve(flags: GatewayFlags, io: CliIO): Promise<void> {
  let loaded = await loadCliConfig(flags, io);
  const approvals = flags.approvals ?? (io.stdin?.isTTY ? 'prompt' : 'deny');
  if (approvals === 'prompt' && !io.stdin?.isTTY) throw new CliUsageError('--approvals prompt needs a terminal on stdin; use --approvals http');
  const mock = await mockProvider(flags.providerMode); // outlives restarts, as do in-process sessions
  const sessionStore = new (await import('@tool-search/sessions')).MemorySessionStore();
  // commands.restart: false: only the gateway tool's own writes restart; a bare SIGUSR1 is ignored (OpenClaw's rule).
  const restarts = restartSignals(() => loaded.config.commands?.restart !== false, (line) => io.stderr.write(`${line}\n`));
  const stop = stopped(io.signal); // listening before the URL is out: a SIGTERM right after it still shuts down cleanly
  let lastRestart: RestartRecord | undefined;
  // The restart just done and who asked for it: once the new gateway serves, that session is woken with the result.
  let justRestarted: RestartRequest | undefined;
  let listenPort = flags.port;
  try {
    for (;;) {
      const { config } = loaded;
      const auth = (await import('@tool-search/auth')).createApiKeys(config.auth, io.env ?? process.env); // a bad auth.keys entry stops us first
      const control = gatewayControl(flags.config, io, loaded, restarts, () => lastRestart);
      const logDir = config.gateway?.sessions?.dir ?? config.session?.logDir;
      const sessionLogDir = logDir !== undefined ? resolve(io.cwd, logDir) : undefined;
      // The provider first: the kernel's tools that call it (image) must see the one this gateway talks to, mock or not.
      const front = await createCliFrontEnd(mock ? withConfigSections(config, { provider: mock.provider }) : config, io, {
        approvals: approvals === 'http' ? 'queue' : approvals === 'prompt' ? promptApprover(io)! : null,
        sessions: true,
        sessionStore,
        gateway: control,
        defaultSandbox: 'quickjs', // code mode under load: see PresetOptions.defaultSandbox
        ...(sessionLogDir ? { sessionLogDir } : {}),
      });
      const gateway = await startCliGateway(front, config, io, { auth, host: flags.host, port: listenPort, mode: flags.mode, provider: mock?.provider ?? config.provider ?? {} }).catch(async (error: unknown) => {
        await front.close();
        throw error;
      });
      listenPort = gateway.port; // a restart keeps the port unless the new config names another
      io.stdout.write(`${gateway.url}\n`);
      const how = `${flags.providerMode.startsWith('mock-') ? ` (${flags.providerMode} provider)` : ''}, approvals ${approvals}${front.approvalQueue ? ` (GET/POST ${gateway.url}/approvals)` : ''}`;
      io.stderr.write(`gateway: mode ${gateway.mode}, model ${gateway.model}${how}, state ${front.state.kind} as replica ${front.state.replicaId}${sessionLogDir ? `, session logs in ${sessionLogDir}` : ''}; Ctrl-C stops\n`);
      const wake = (request: RestartRequest, outcome: Parameters<typeof restartWakeNote>[1]) => {
        if (!request.sessionId || !front.sessionHost) return;
        // In the background: serving does not wait for the woken agent's turn.
        void wakeSession(front.sessionHost, request.sessionId, restartWakeNote(request, outcome)).then((how) =>
          io.stderr.write(`gateway: ${how === 'unknown-session' ? 'no session to wake' : `session ${request.sessionId} ${how}`} after the restart\n`),
        );
      };
      if (justRestarted && lastRestart) wake(justRestarted, { ok: true, record: lastRestart });
      justRestarted = undefined;
      const next = await nextConfig(flags, io, control, restarts, stop, (request, error) => wake(request, { ok: false, error }));
      if (!next) return void (await front.close());
      lastRestart = restartRecord(next.request, lastRestart);
      justRestarted = next.request;
      io.stderr.write(`gateway: restarting in-process (SIGUSR1: ${next.request.reason})\n`);
      await drained(gateway.server, DRAIN_MS);
      await front.close();
      loaded = next.loaded;
      if (flags.port === undefined && loaded.config.gateway?.port !== undefined) listenPort = loaded.config.gateway.port;
    }
  } finally {
    restarts.close();
    await mock?.close();
  }
}

/** The config of the next restart, once one is asked for and its config loads (a broken file keeps the old one serving); undefined on stop. */
async function nextConfig(flags: GatewayFlags, io: CliIO, control: GatewayControl, restarts: RestartSignals, stop: Promise<unknown>, refused: (request: RestartRequest, error: string) => void) {
  for (;;) {
    const request = await Promise.race([stop.then(() => undefined), restarts.next()]);
    if (!request) return undefined;
    try {
      const loaded = await loadCliConfig(flags, io);
      await control.check(loaded.config);
      return { request, loaded };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      io.stderr.write(`gateway: restart refused, still serving the previous config: ${why}\n`);
      refused(request, why);
    }
  }
}

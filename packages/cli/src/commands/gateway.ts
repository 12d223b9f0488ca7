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

async function serve(flags: GatewayFlags, io: CliIO): Promise<void> {
  const { config } = await loadCliConfig(flags, io);
  const auth = (await import('@tool-search/auth')).createApiKeys(config.auth, io.env ?? process.env); // a bad auth.keys entry stops us first
  const approvals = flags.approvals ?? (io.stdin?.isTTY ? 'prompt' : 'deny');
  if (approvals === 'prompt' && !io.stdin?.isTTY) throw new CliUsageError('--approvals prompt needs a terminal on stdin; use --approvals http');
  const logDir = config.gateway?.sessions?.dir ?? config.session?.logDir;
  const sessionLogDir = logDir !== undefined ? resolve(io.cwd, logDir) : undefined;
  // The provider first: the kernel's tools that call it (image) must see the one this gateway talks to, mock or not.
  const mock = await mockProvider(flags.providerMode);
  const front = await createCliFrontEnd(mock ? withConfigSections(config, { provider: mock.provider }) : config, io, {
    approvals: approvals === 'http' ? 'queue' : approvals === 'prompt' ? promptApprover(io)! : null,
    sessions: true,
    ...(sessionLogDir ? { sessionLogDir } : {}),
  }).catch(async (error: unknown) => {
    await mock?.close();
    throw error;
  });
  if (mock) front.onClose(() => mock.close());
  try {
    const gateway = await startCliGateway(front, config, io, { auth, host: flags.host, port: flags.port, mode: flags.mode, provider: mock?.provider ?? config.provider ?? {} });
    const stop = stopped(io.signal); // listening before the URL is out: a SIGTERM right after it still shuts down cleanly
    io.stdout.write(`${gateway.url}\n`);
    const how = `${flags.providerMode.startsWith('mock-') ? ` (${flags.providerMode} provider)` : ''}, approvals ${approvals}${front.approvalQueue ? ` (GET/POST ${gateway.url}/approvals)` : ''}`;
    io.stderr.write(`gateway: mode ${gateway.mode}, model ${gateway.model}${how}, state ${front.state.kind} as replica ${front.state.replicaId}${sessionLogDir ? `, session logs in ${sessionLogDir}` : ''}; Ctrl-C stops\n`);
    await stop;
  } finally {
    await front.close();
  }
}

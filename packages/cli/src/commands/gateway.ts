/**
 * `tool-search gateway`: the OpenAI-compatible gateway over a kernel built from the config, until SIGINT/SIGTERM (or
 * `io.signal`); SIGUSR1 restarts it in-process. The preset composes and runs it (`runGateway`); this parses flags.
 * With `--provider-mode mock-openai` the provider is the in-process mock, so it runs without a key or network.
 */
import { Option, type Command } from 'commander';
import { CliUsageError, type CliIO } from '../io.js';
import { port } from './serving.js';
import { loadCliConfig, withConfigOption, withConfigSections, type ConfigFlags } from '../options.js';
import { EXPOSURE_MODES } from './exposure.js';
import { cliFrontEndOptions } from '../front-end.js';
import { mockProvider, PROVIDER_MODES, type ProviderMode } from '../mock-provider.js';
import { promptApprover } from '../approvals.js';

export { MOCK_ANTHROPIC_MODEL, MOCK_PROVIDER_MODEL, PROVIDER_MODES } from '../mock-provider.js';
export const APPROVAL_MODES = ['prompt', 'http', 'deny'] as const;

interface GatewayFlags extends ConfigFlags {
  readonly port?: number;
  readonly host?: string;
  readonly providerMode: ProviderMode;
  readonly mode?: string;
  readonly approvals?: (typeof APPROVAL_MODES)[number];
}

export function registerGatewayCommand(program: Command, io: CliIO): void {
  withConfigOption(
    program
      .command('gateway')
      .description('serve the gateway (POST /v1/chat/completions, /v1/responses, /v1/messages) until Ctrl-C'),
  )
    .option('--port <port>', 'port (default gateway.port, else 0 = a free port)', port)
    .option('--host <host>', 'host (default gateway.host, else 127.0.0.1; other hosts need auth.keys)')
    .addOption(
      new Option(
        '--provider-mode <mode>',
        'provider: from the config, or an in-process mock (OpenAI or Anthropic wire format)',
      )
        .choices(PROVIDER_MODES)
        .default('config'),
    )
    .addOption(
      new Option(
        '--mode <mode>',
        'exposure mode for every run (default: per run, the toolSearch setting for its agent and provider/model)',
      ).choices(EXPOSURE_MODES),
    )
    .addOption(
      new Option('--approvals <how>', 'who answers approvals (default: prompt on a TTY, else deny)').choices(
        APPROVAL_MODES,
      ),
    )
    .action((flags: GatewayFlags) => serve(flags, io));
}

async function serve(flags: GatewayFlags, io: CliIO): Promise<void> {
  const approvals = flags.approvals ?? (io.stdin?.isTTY ? 'prompt' : 'deny');
  if (approvals === 'prompt' && !io.stdin?.isTTY)
    throw new CliUsageError('--approvals prompt needs a terminal on stdin; use --approvals http');
  const mock = await mockProvider(flags.providerMode); // outlives restarts, as do in-process sessions
  // Read again for each restart; the mock, when there is one, is the provider (the image tool must see it too).
  const load = async () => {
    const loaded = await loadCliConfig(flags, io);
    return mock ? { ...loaded, config: withConfigSections(loaded.config, { provider: mock.provider }) } : loaded;
  };
  const how = `${mock ? ` (${flags.providerMode} provider)` : ''}, approvals ${approvals}`;
  const log = (line: string) => void io.stderr.write(`${line}\n`);
  try {
    const { runGateway } = await import('@tool-search/preset');
    await runGateway({
      ...cliFrontEndOptions(io),
      load,
      cwd: io.cwd,
      configPath: flags.config,
      host: flags.host,
      port: flags.port,
      mode: flags.mode,
      signal: io.signal,
      log,
      approvals: approvals === 'http' ? 'queue' : approvals === 'prompt' ? promptApprover(io)! : null,
      onListening: ({ url, mode, model, front, sessionLogDir }) => {
        io.stdout.write(`${url}\n`);
        const state = `state ${front.state.kind} as replica ${front.state.replicaId}${sessionLogDir ? `, session logs in ${sessionLogDir}` : ''}`;
        log(
          `gateway: mode ${mode}, model ${model}${how}${front.approvalQueue ? ` (GET/POST ${url}/approvals)` : ''}, ${state}; Ctrl-C stops`,
        );
      },
    });
  } finally {
    await mock?.close();
  }
}

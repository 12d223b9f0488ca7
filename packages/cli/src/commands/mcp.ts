/**
 * `tool-search mcp login <server>`: the OAuth browser flow for a remote MCP
 * server of the config (prints the authorization URL, waits on a loopback
 * redirect, keeps the tokens in the state folder). `mcp logout <server>`
 * forgets them.
 */
import type { Command } from 'commander';
import { CliInputError, writeJson, type CliIO } from '../io.js';
import {
  commandGroup,
  loadCliConfig,
  withConfigOption,
  withJsonOption,
  type ConfigFlags,
  type JsonFlag,
} from '../options.js';

interface LoginFlags extends ConfigFlags, JsonFlag {
  readonly timeout: string;
}

export function registerMcpCommands(program: Command, io: CliIO): void {
  const mcp = commandGroup(program, 'mcp', 'log in to and out of remote MCP servers (OAuth)');

  withJsonOption(
    withConfigOption(
      mcp
        .command('login <server>')
        .description(
          'log in to an MCP server of the config: prints the URL to open, waits for the browser on a loopback redirect',
        )
        .option('--timeout <seconds>', 'how long to wait for the browser', '300'),
    ),
  ).action(async (server: string, flags: LoginFlags) => {
    const seconds = Number(flags.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0)
      throw new CliInputError(`--timeout must be a positive number of seconds, got "${flags.timeout}"`);
    const loaded = await loadCliConfig(flags, io);
    const config = loaded.resolved.mcp.servers[server];
    if (!config) {
      const known = Object.keys(loaded.resolved.mcp.servers);
      throw new CliInputError(
        `no MCP server "${server}" in ${loaded.path ?? 'the config'}; ${known.length ? `known: ${known.join(', ')}` : 'none is configured'}`,
      );
    }
    const { defaultStateDir, fileTokenStore, loopbackAuthorizer, mcpLogin, tokenFile } = await (
      await import('@tool-search/preset')
    ).loadMcpClient();
    const stateDir = defaultStateDir(io.env ?? process.env);
    // With --json the URL goes to stderr, so stdout stays one JSON document.
    const prompt = flags.json ? io.stderr : io.stdout;
    const authorizer = loopbackAuthorizer({
      open: (url) => void prompt.write(`Open this URL to log in to MCP server "${server}":\n  ${url.href}\n`),
      timeoutMs: seconds * 1000,
    });
    try {
      const { toolCount } = await mcpLogin(server, config, {
        store: fileTokenStore(stateDir),
        authorizer,
        timeoutMs: seconds * 1000,
      });
      const file = tokenFile(stateDir, server);
      if (flags.json) writeJson(io, { server, loggedIn: true, toolCount, tokenFile: file });
      else io.stdout.write(`Logged in to "${server}" (${toolCount} tools); tokens are in ${file}\n`);
    } finally {
      await authorizer.close();
    }
  });

  withJsonOption(
    mcp.command('logout <server>').description('forget the tokens and registration kept for an MCP server'),
  ).action(async (server: string, flags: JsonFlag) => {
    const { defaultStateDir, fileTokenStore, mcpLogout } = await (await import('@tool-search/preset')).loadMcpClient();
    const forgotten = await mcpLogout(server, fileTokenStore(defaultStateDir(io.env ?? process.env)));
    if (flags.json) writeJson(io, { server, loggedOut: forgotten });
    else io.stdout.write(forgotten ? `Logged out of "${server}"\n` : `No login was kept for "${server}"\n`);
  });
}

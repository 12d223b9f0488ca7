/**
 * `tool-search tools search|describe|call`: what the search tools would
 * answer, and one call through the run (policy, validation, guards, approvals).
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Run, ToolCallOutcome } from '@tool-search/kernel';
import { ErrorCode, errorMessage, ToolSearchError, UnknownToolError } from '@tool-search/kernel/errors';
import type { SearchResult, ToolDescription, ToolIndex } from '@tool-search/search';
import { CliExit, CliInputError, writeJson, type CliIO } from '../io.js';
import {
  requireSources,
  withClientToolsOption,
  withJsonOption,
  withRun,
  withRunOptions,
  type JsonFlag,
  type RunFlags,
  type RunScope,
} from '../options.js';
import { toolsGroup } from './tools.js';

export function registerToolSearchCommands(program: Command, io: CliIO): void {
  const tools = toolsGroup(program);

  runCommand(
    tools
      .command('search')
      .argument('<query>', 'what the tool should do')
      .description('rank the effective catalog for a query, as tool_search does'),
  )
    .option('--limit <n>', 'hits to return (capped by tools.toolSearch.maxSearchLimit)', positiveInt)
    .action(async (query: string, flags: RunFlags & JsonFlag & { limit?: number }) => {
      await withRun(flags, io, async (run, scope) => {
        const result = (await searchIndex(run, scope)).search(
          query,
          flags.limit !== undefined ? { limit: flags.limit } : {},
        );
        // Asking for more than the cap is not an error, but silently getting fewer would look like fewer matches.
        const max = scope.preset.toolSearch.maxSearchLimit;
        const capped =
          flags.limit !== undefined && flags.limit > max ? { requested: flags.limit, limit: max } : undefined;
        if (capped)
          io.stderr.write(`note: --limit ${capped.requested} was capped to ${max} (tools.toolSearch.maxSearchLimit)\n`);
        if (flags.json) writeJson(io, capped ? { ...result, capped } : result);
        else io.stdout.write(searchText(result));
        requireSources(run, flags, io);
      });
    });

  runCommand(
    tools
      .command('describe')
      .argument('<id>', 'tool id (or name)')
      .description('print one tool with its exact input schema, as tool_describe does'),
  ).action(async (id: string, flags: RunFlags & JsonFlag) => {
    await withRun(flags, io, async (run, scope) => {
      const index = await searchIndex(run, scope);
      const description = index.describe(id) ?? (await directOnly(run, id));
      if (!description) throw new UnknownToolError(id, index.suggest(id));
      if (flags.json) writeJson(io, description);
      else io.stdout.write(describeText(description));
    });
  });

  runCommand(
    tools
      .command('call')
      .argument('<id>', 'tool id (or name)')
      .description('call one tool through the run (policy, argument check, guards, approvals)'),
  )
    .option('--args <json>', 'the arguments as a JSON object', '{}')
    .action(async (id: string, flags: RunFlags & JsonFlag & { args: string }) => {
      const args = parseArgs(flags.args);
      await withRun(flags, io, async (run) => {
        const outcome = await run.call(id, args, { origin: 'api' }).catch(async (error: unknown) => {
          throw await notAvailable(run, id, error);
        });
        if (outcome.status === 'error' && outcome.error.code === ErrorCode.UNKNOWN_TOOL)
          throw await notAvailable(run, id, new ToolSearchError(ErrorCode.UNKNOWN_TOOL, outcome.error.message));
        await printOutcome(io, outcome, flags.json === true);
        if (outcome.status !== 'ok' || outcome.result.isError) throw new CliExit(1);
      });
    });
}

/**
 * The CLI operator may learn what a model must not: a tool the config's policy dropped is named as such, with the
 * command that says why. (A model calling it gets UNKNOWN_TOOL, as if it did not exist.)
 */
async function notAvailable(run: Run, id: string, error: unknown): Promise<unknown> {
  if (!ToolSearchError.isInstance(error) || error.code !== ErrorCode.UNKNOWN_TOOL) return error;
  const unavailable = await serverUnavailable(run, id, error);
  if (unavailable) return unavailable;
  const explanation = run.explain(id);
  if (!explanation.known || explanation.inCatalog) return error;
  const dropped = explanation.steps.find((step) => !step.kept);
  const where = dropped ? ` (dropped at ${dropped.step}${dropped.rule ? `: ${dropped.rule}` : ''})` : '';
  return new ToolSearchError(
    ErrorCode.POLICY_DENIED,
    `${explanation.toolId} is not available to this run${where}; see why with: tool-search tools explain ${id}`,
    {
      toolId: explanation.toolId,
      details: {
        requested: id,
        explain: `tool-search tools explain ${id}`,
        ...(dropped ? { step: dropped.step, rule: dropped.rule } : {}),
      },
    },
  );
}

/**
 * A tool of an MCP server that failed to start is unknown to the kernel (the server listed nothing): say which server
 * is unavailable and why, as `serve mcp` does (MCP_SERVER_UNAVAILABLE with the run's diagnostic).
 */
async function serverUnavailable(run: Run, id: string, cause: unknown): Promise<ToolSearchError | undefined> {
  const server = /^mcp:([^:]+):/.exec(id)?.[1];
  if (!server) return undefined;
  // The preset is loaded by now (the run came from it): this import costs nothing and keeps `tools --help` light.
  const { McpErrors } = await import('@tool-search/preset');
  const failure = run.diagnostics.find(
    (d) =>
      (d.code === McpErrors.MCP_SERVER_FAILED || d.code === McpErrors.MCP_SERVER_UNAVAILABLE) &&
      d.details?.server === server,
  );
  if (!failure) return undefined;
  return new ToolSearchError(
    McpErrors.MCP_SERVER_UNAVAILABLE,
    `MCP server "${server}" is unavailable: ${failure.message}`,
    {
      cause,
      details: { requested: id, server, ...(failure.details?.reason ? { reason: failure.details.reason } : {}) },
    },
  );
}

function runCommand(command: Command): Command {
  return withClientToolsOption(withJsonOption(withRunOptions(command)));
}

// The search and result-format packages load when a command runs, not with the command table (`tools --help`).

/** The same index the modes use, with the config's limits. */
async function searchIndex(run: Run, { preset }: RunScope): Promise<ToolIndex> {
  const { indexForRun } = await import('@tool-search/search');
  const { searchDefaultLimit, maxSearchLimit } = preset.toolSearch;
  return indexForRun(run, { searchDefaultLimit, maxSearchLimit });
}

/** Direct-only tools are in the catalog but never in the search index; describe them anyway. */
async function directOnly(run: Run, idOrName: string): Promise<ToolDescription | undefined> {
  const tool = run.catalog.find((t) => t.id === idOrName) ?? run.catalog.find((t) => t.name === idOrName);
  if (!tool) return undefined;
  const { describeTool } = await import('@tool-search/search');
  return describeTool(tool);
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

function parseArgs(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliInputError(`--args is not JSON: ${errorMessage(error)}`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CliInputError('--args must be a JSON object');
  return parsed as Record<string, unknown>;
}

function searchText(result: SearchResult): string {
  const unavailable = (result.unavailable ?? []).map(
    (source) => `(not searchable in this run: ${source.name}, ${source.state}, ${source.code})`,
  );
  if (result.hits.length === 0) return [`no tools match "${result.query}"`, ...unavailable, ''].join('\n');
  const lines = result.hits.map(
    (hit) => `${hit.id}  ${hit.input}${hit.weak && !result.weak ? '  (weak match)' : ''}\n    ${hit.summary}`,
  );
  if (result.weak) lines.unshift(`no tool matches "${result.query}" well; the closest partial matches (weak):`);
  if (result.truncated) lines.push('(more hits were cut; raise --limit or refine the query)');
  return `${[...lines, ...unavailable].join('\n')}\n`;
}

function describeText(tool: ToolDescription): string {
  return (
    [
      `${tool.id} (${tool.source}, owner ${tool.owner})`,
      tool.description,
      `input schema: ${JSON.stringify(tool.inputSchema, null, 2)}`,
    ].join('\n') + '\n'
  );
}

async function printOutcome(io: CliIO, outcome: ToolCallOutcome, json: boolean): Promise<void> {
  if (json) return writeJson(io, outcome);
  switch (outcome.status) {
    case 'ok': {
      const { toolResultText } = await import('@tool-search/provider-formats');
      io.stdout.write(`${toolResultText(outcome.result, { indent: 2 })}\n`);
      if (outcome.result.isError) io.stderr.write(`error: ${outcome.toolId} returned an error result\n`);
      return;
    }
    case 'blocked':
      io.stderr.write(`blocked by ${outcome.by}: ${outcome.reason}\n`);
      return;
    case 'error':
      io.stderr.write(`error ${outcome.error.code}: ${outcome.error.message}\n`);
      return;
    case 'pending':
      io.stderr.write(`pending: ${outcome.name} is a client tool; the client runs it, not the CLI\n`);
      return;
  }
}

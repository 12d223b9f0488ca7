/**
 * `tool-search tools export --full [--json] [--out F]`: the run's search
 * catalog as a snapshot file (the format of @tool-search/plugin-snapshot),
 * so `tool-search eval --catalog` can measure it offline. Registered under
 * the existing `tools` group.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CatalogSnapshot } from '@tool-search/preset';
import { writeJson, type CliIO } from '../io.js';
import { withJsonOption, withRun, withRunOptions, type JsonFlag, type RunFlags } from '../options.js';
import { toolsGroup } from './tools.js';

interface ExportFlags extends RunFlags, JsonFlag {
  readonly full?: boolean;
  readonly out?: string;
}

export function registerExportCommands(program: Command, io: CliIO): void {
  const tools = toolsGroup(program);
  withJsonOption(
    withRunOptions(
      tools
        .command('export')
        .description('write the search catalog as a snapshot (for tool-search eval --catalog)')
        .option('--full', 'include input/output schemas and annotations (descriptors with schemas)')
        .option('-o, --out <file>', 'write the snapshot to a file instead of stdout'),
    ),
  ).action(async (flags: ExportFlags) => {
    await withRun(flags, io, async (run) => {
      const { toSnapshot } = await import('@tool-search/preset');
      const snapshot = toSnapshot(run.catalog);
      const body = flags.full ? snapshot : withoutSchemas(snapshot);
      if (flags.out === undefined) return writeJson(io, body);
      const file = path.resolve(io.cwd, flags.out);
      writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
      if (flags.json) writeJson(io, { file, tools: body.tools.length, full: flags.full === true });
      else
        io.stdout.write(
          `wrote ${body.tools.length} tools to ${file}${flags.full ? '' : ' (without schemas; add --full for them)'}\n`,
        );
    });
  });
}

/** Ids, names and descriptions only: enough to label queries, smaller to read. */
function withoutSchemas(snapshot: CatalogSnapshot): CatalogSnapshot {
  return {
    ...snapshot,
    tools: snapshot.tools.map(({ inputSchema: _input, outputSchema: _output, annotations: _annotations, ...rest }) => ({
      ...rest,
      inputSchema: { type: 'object' },
    })),
  };
}

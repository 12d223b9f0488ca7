/** `tool-search tools list|explain`: the effective catalog of a run and why a tool is in it or not. */
import type { Command } from 'commander';
import type { Diagnostic, Explanation, ToolDescriptor } from '@tool-search/kernel';
import { suggestIds, UnknownToolError } from '@tool-search/kernel/errors';
import type { LoadedPluginModule } from '@tool-search/preset';
import { CliInputError, writeJson, type CliIO } from '../io.js';
import { isDemoTool } from '../demo-notice.js';
import { appliedText, appliedToolSearch } from '../tool-search-setting.js';
import { diagnosticLines, materialize } from './exposure.js';
import {
  commandGroup,
  requireSources,
  withClientToolsOption,
  withJsonOption,
  withRun,
  withRunOptions,
  type JsonFlag,
  type RunFlags,
} from '../options.js';

/** The `tools` group; other files add their subcommands to it (`tools search`, `tools export`). */
export function toolsGroup(program: Command): Command {
  return commandGroup(program, 'tools', 'inspect, search and call the effective tool catalog');
}

export function registerToolsCommands(program: Command, io: CliIO): void {
  const tools = toolsGroup(program);

  withClientToolsOption(
    withJsonOption(withRunOptions(tools.command('list').description('print the effective catalog (policy applied)'))),
  ).action(async (flags: RunFlags & JsonFlag) => {
    await withRun(flags, io, (run, { preset }) => {
      if (flags.json) {
        writeJson(io, {
          tools: run.catalog.map((tool) => ({
            id: tool.id,
            name: tool.name,
            source: tool.source,
            owner: tool.owner,
            catalogMode: tool.catalogMode,
            // A fake of the demo catalog: it does nothing (absent on real tools).
            ...(isDemoTool(tool) ? { demo: true } : {}),
          })),
          diagnostics: run.diagnostics,
          modules: preset.modules,
        });
      } else {
        io.stdout.write(table(run.catalog));
        io.stdout.write(`${counts(run.catalog)}\n`);
        io.stdout.write(modulesText(preset.modules));
        printDiagnostics(io, run.diagnostics);
      }
      requireSources(run, flags, io);
    });
  });

  withJsonOption(
    withRunOptions(
      tools
        .command('explain')
        .argument('<tool>', 'tool name or id')
        .description('print the ordered policy steps for one tool'),
    ),
  ).action(async (tool: string, flags: RunFlags & JsonFlag) => {
    await withRun(flags, io, async (run, { loaded }) => {
      const explanation = run.explain(tool);
      // An unknown tool is a failure: with --json it is the one `{ error }` document on stdout.
      if (!explanation.known && flags.json) throw new UnknownToolError(tool, suggestIds(tool, run.listed));
      const applied = await appliedToolSearch(loaded.config, run.info.request);
      // The mode as it materializes here: a fallback (tools mode, the QuickJS sandbox) is said with its reason. A mode
      // that cannot materialize is left out: explain is about the tool; `tool-search exposure` reports that failure.
      const exposure = await materialize(run, applied.mode).catch(() => undefined);
      const runs = exposure ? { mode: exposure.exposure.mode, diagnostics: exposure.diagnostics } : undefined;
      if (flags.json)
        writeJson(io, {
          ...explanation,
          toolSearch: { mode: applied.mode, sources: applied.sources, ...(runs ? { exposure: runs } : {}) },
        });
      else io.stdout.write(`${explainText(explanation)}${appliedText(applied)}\n${runsText(applied.mode, runs)}`);
      if (!explanation.known) {
        const suggestions = suggestIds(tool, run.listed);
        throw new CliInputError(
          `unknown tool "${tool}"` + (suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : ''),
        );
      }
    });
  });
}

/** One row per tool; a `DEMO` column (`fake`) when the catalog holds fakes of the demo catalog. */
function table(tools: readonly ToolDescriptor[]): string {
  const fakes = tools.some(isDemoTool);
  const rows = [
    ['NAME', 'SOURCE', 'OWNER', 'MODE', ...(fakes ? ['DEMO'] : [])],
    ...tools.map((tool) => [
      tool.name,
      tool.source,
      tool.owner,
      tool.catalogMode,
      ...(fakes ? [isDemoTool(tool) ? 'fake' : ''] : []),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, column) => cell.padEnd(widths[column]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

function counts(tools: readonly ToolDescriptor[]): string {
  const bySource = new Map<string, number>();
  for (const tool of tools) bySource.set(tool.source, (bySource.get(tool.source) ?? 0) + 1);
  const parts = [...bySource].map(([source, count]) => `${source} ${count}`);
  const fakes = tools.filter(isDemoTool).length;
  return (
    `${tools.length} tools` +
    (parts.length ? ` (${parts.join(', ')})` : '') +
    (fakes ? `\n${fakes} of them are fakes of the demo catalog: they do nothing` : '')
  );
}

/** The plugin modules the config loaded and where from: loading code is the operator's trust decision, so it is shown. */
export function modulesText(modules: readonly LoadedPluginModule[]): string {
  return modules
    .map((m) => `plugin module ${m.id} (${m.name}, kernel ${m.kernelRange}) loaded from ${m.path}\n`)
    .join('');
}

export function printDiagnostics(io: CliIO, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics)
    io.stderr.write(`${d.level} ${d.code}${d.plugin ? ` [${d.plugin}]` : ''}: ${d.message}\n`);
}

function runsText(requested: string, runs: { mode: string; diagnostics: Diagnostic[] } | undefined): string {
  if (!runs) return '';
  const lines = [...(runs.mode !== requested ? [`  runs as ${runs.mode}`] : []), ...diagnosticLines(runs.diagnostics)];
  return lines.map((line) => `${line}\n`).join('');
}

function explainText(explanation: Explanation): string {
  if (!explanation.known) return `${explanation.requested}: not listed by any source\n`;
  const lines = [`${explanation.toolId}: ${explanation.inCatalog ? 'in the catalog' : 'dropped by policy'}`];
  explanation.steps.forEach((step, i) => {
    lines.push(
      `  ${i + 1}. ${step.step}: ${step.kept ? 'kept' : 'dropped'}${step.rule ? ` (${step.rule})` : ''}${step.plugin ? ` [${step.plugin}]` : ''}`,
    );
  });
  if (explanation.steps.length === 0) lines.push('  (no policy step recorded)');
  return `${lines.join('\n')}\n`;
}

/**
 * `tool-search exposure`: exactly what the model would see in one mode (tools
 * in the provider's format plus the system text) and how many bytes that is.
 */
import { Option, type Command } from 'commander';
import type { Diagnostic, Run, RunExposure } from '@tool-search/kernel';
import { COMPARED_MODES } from '@tool-search/config/modes';
import { writeJson, type CliIO } from '../io.js';
import { appliedText, appliedToolSearch } from '../tool-search-setting.js';
import {
  requireSources,
  withClientToolsOption,
  withJsonOption,
  withRun,
  withRunOptions,
  type JsonFlag,
  type RunFlags,
} from '../options.js';

/** The `--mode` choices: direct and the search modes (config's one list). */
export const EXPOSURE_MODES = COMPARED_MODES;
export const EXPOSURE_FORMATS = ['openai', 'anthropic'] as const;

export interface ExposureBytes {
  /** UTF-8 bytes of `JSON.stringify(tools)` in the chosen format. */
  readonly tools: number;
  /** UTF-8 bytes of the system text. */
  readonly system: number;
  readonly total: number;
}

export function registerExposureCommand(program: Command, io: CliIO): void {
  const command = program
    .command('exposure')
    .description('print what the model would see in a mode (tools + system text) and its size in bytes')
    .addOption(
      new Option(
        '--mode <mode>',
        'exposure mode (default: the toolSearch setting for this agent/provider, else tools.toolSearch.mode)',
      ).choices(EXPOSURE_MODES),
    )
    .addOption(new Option('--format <format>', 'tool format').choices(EXPOSURE_FORMATS).default('openai'));
  withClientToolsOption(withJsonOption(withRunOptions(command))).action(
    async (flags: RunFlags & JsonFlag & { mode?: string; format: (typeof EXPOSURE_FORMATS)[number] }) => {
      await withRun(flags, io, async (run, { loaded }) => {
        const applied = await appliedToolSearch(loaded.config, run.info.request, flags.mode);
        const requested = applied.mode;
        const { providerExposure } = await import('@tool-search/provider-formats');
        const materialized = await materialize(run, requested);
        const exposure = providerExposure(materialized.exposure);
        const { diagnostics } = materialized;
        const tools = flags.format === 'anthropic' ? exposure.toAnthropic() : exposure.toOpenAI();
        const bytes = exposureBytes(tools, exposure.system);
        if (flags.json) {
          writeJson(io, {
            mode: exposure.mode,
            requestedMode: requested,
            setting: applied.sources,
            format: flags.format,
            tools,
            system: exposure.system,
            bytes,
            diagnostics,
          });
        } else {
          io.stdout.write(`${appliedText(applied)}\n`);
          io.stdout.write(exposureText(exposure, requested, tools, bytes, diagnostics));
        }
        requireSources(run, flags, io);
      });
    },
  );
}

/** Materializes `mode`, with what it had to tell: a fallback (another mode, a weaker sandbox) and why. */
export async function materialize(
  run: Run,
  mode: string,
): Promise<{ exposure: RunExposure; diagnostics: Diagnostic[] }> {
  const before = run.diagnostics.length;
  const exposure = await run.exposure(mode);
  return { exposure, diagnostics: run.diagnostics.slice(before) };
}

/** Those diagnostics as indented lines under the mode. */
export function diagnosticLines(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `  ${d.level} ${d.code}${d.plugin ? ` [${d.plugin}]` : ''}: ${d.message}`);
}

export function exposureBytes(tools: readonly unknown[], system: string): ExposureBytes {
  const toolBytes = Buffer.byteLength(JSON.stringify(tools), 'utf8');
  const systemBytes = Buffer.byteLength(system, 'utf8');
  return { tools: toolBytes, system: systemBytes, total: toolBytes + systemBytes };
}

function exposureText(
  exposure: RunExposure,
  requested: string,
  tools: readonly unknown[],
  bytes: ExposureBytes,
  diagnostics: readonly Diagnostic[],
): string {
  const lines = [
    `mode: ${exposure.mode}${exposure.mode !== requested ? ` (requested ${requested}; fell back)` : ''}`,
    ...diagnosticLines(diagnostics),
    `tools (${tools.length}):`,
  ];
  lines.push(JSON.stringify(tools, null, 2));
  lines.push('system:', exposure.system || '(none)');
  lines.push(`bytes: tools ${bytes.tools} + system ${bytes.system} = ${bytes.total}`);
  return `${lines.join('\n')}\n`;
}

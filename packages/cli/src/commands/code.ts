/**
 * `tool-search code run`: runs code exactly as the model's `tool_search_code`
 * call would — through the `code` exposure of a run built from the config,
 * so the sandbox, its limits and every guard are the same.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ToolSearchError } from '@tool-search/kernel/errors';
import { CliExit, CliInputError, CliUsageError, writeJson, type CliIO } from '../io.js';
import { withConfigOption, withJsonOption, withRun, type ConfigFlags, type JsonFlag } from '../options.js';

const CODE_TOOL = 'tool_search_code';

/** `{ ok, value, logs, telemetry }` or `{ ok: false, error, logs?, telemetry }`, as tool_search_code returns it. */
interface CodeRunResult {
  readonly ok: boolean;
  readonly value?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
  readonly logs?: readonly { readonly level: string; readonly text: string }[];
  readonly telemetry?: unknown;
}

export function registerCodeCommands(program: Command, io: CliIO): void {
  const code = program.command('code').description('run code as tool_search_code does');

  withJsonOption(
    withConfigOption(code.command('run').description('run the body of an async function in the code-mode sandbox')),
  )
    .option('--file <file>', 'read the code from a file')
    .option('--eval <code>', 'the code itself')
    .action(async (flags: ConfigFlags & JsonFlag & { file?: string; eval?: string }) => {
      const source = await codeSource(flags, io);
      await withRun(flags, io, async (run) => {
        const { CodeErrors } = await import('@tool-search/preset');
        const exposure = await run.exposure('code');
        if (!exposure.has(CODE_TOOL)) {
          throw new ToolSearchError(
            CodeErrors.SANDBOX_UNAVAILABLE,
            `code mode is not available here (the run fell back to ${exposure.mode} mode)`,
          );
        }
        const outcome = await exposure.call(CODE_TOOL, { code: source });
        const result: CodeRunResult =
          outcome.status === 'ok'
            ? ((outcome.result.structuredContent as CodeRunResult | undefined) ?? {
                ok: false,
                error: { code: CodeErrors.CODE_FAILED, message: 'no result' },
              })
            : {
                ok: false,
                error:
                  outcome.status === 'error'
                    ? outcome.error
                    : { code: CodeErrors.CODE_FAILED, message: outcome.status },
              };
        if (flags.json) writeJson(io, result);
        else printResult(io, result);
        if (!result.ok) throw new CliExit(1);
      });
    });
}

async function codeSource(flags: { file?: string; eval?: string }, io: CliIO): Promise<string> {
  if ((flags.file === undefined) === (flags.eval === undefined))
    throw new CliUsageError('code run needs exactly one of --file F or --eval CODE');
  if (flags.eval !== undefined) return flags.eval;
  const path = resolve(io.cwd, flags.file!);
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new CliInputError(`cannot read --file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function printResult(io: CliIO, result: CodeRunResult): void {
  for (const log of result.logs ?? []) io.stderr.write(`[${log.level}] ${log.text}\n`);
  if (!result.ok) {
    io.stderr.write(`error ${result.error?.code ?? 'CODE_FAILED'}: ${result.error?.message ?? 'the code failed'}\n`);
    return;
  }
  const { value } = result;
  if (value === undefined) {
    io.stderr.write('note: the code ran and returned no value (end it with `return …` to print a result)\n');
    return;
  }
  io.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`);
}

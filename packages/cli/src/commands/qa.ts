/**
 * `tool-search qa suite`: the end-to-end scenario from `@tool-search/qa`
 * (gateway + mock provider, one lane per mode). That package is a dependency
 * of the CLI (so the scenario works from an installed CLI), imported only when
 * the command runs because it is heavy (the official OpenAI and Anthropic clients).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { CliExit, CliInputError, CliUsageError, type CliIO } from '../io.js';
import { withJsonOption } from '../options.js';
import { errorMessage } from '@tool-search/kernel';

export const QA_SCENARIOS = ['tool-search-gateway-e2e'] as const;
export const QA_PROVIDER_MODES = ['mock-openai', 'mock-anthropic'] as const;
const QA_PACKAGE = '@tool-search/qa';

interface QaFlags {
  readonly providerMode: string;
  readonly scenario: string;
  readonly tools?: number;
  readonly json?: boolean;
}

export function registerQaCommands(program: Command, io: CliIO): void {
  const qa = program.command('qa').description('quality checks against a scripted provider');
  withJsonOption(qa.command('suite').description('run an end-to-end scenario through the gateway and print its report'))
    .option('--provider-mode <mode>', `provider (${QA_PROVIDER_MODES.join(', ')})`, 'mock-openai')
    .option('--scenario <name>', `scenario (${QA_SCENARIOS.join(', ')})`, 'tool-search-gateway-e2e')
    .option('--tools <n>', 'plugin tools in the fake catalog (default 1000)', count)
    .action(async (flags: QaFlags) => {
      // Checked here rather than with commander choices so the message names the known values (exit 2 either way).
      if (!(QA_PROVIDER_MODES as readonly string[]).includes(flags.providerMode)) {
        throw new CliUsageError(
          `unknown --provider-mode "${flags.providerMode}"; known: ${QA_PROVIDER_MODES.join(', ')}`,
        );
      }
      if (!(QA_SCENARIOS as readonly string[]).includes(flags.scenario)) {
        throw new CliUsageError(`unknown --scenario "${flags.scenario}"; known: ${QA_SCENARIOS.join(', ')}`);
      }
      const qa = await loadQa();
      if (qa.SCENARIO !== flags.scenario)
        throw new CliUsageError(`${QA_PACKAGE} runs scenario "${qa.SCENARIO}", not "${flags.scenario}"`);
      const providerMode = flags.providerMode as (typeof QA_PROVIDER_MODES)[number];
      const result = await qa.runQaSuite({
        providerMode,
        ...(flags.tools !== undefined ? { tools: flags.tools } : {}),
      });
      io.stdout.write(flags.json ? `${JSON.stringify(qa.toJson(result))}\n` : ensureNewline(qa.formatSuite(result)));
      if (!result.ok) throw new CliExit(1);
    });
}

async function loadQa(): Promise<typeof import('@tool-search/qa')> {
  try {
    return await import('@tool-search/qa');
  } catch (error) {
    throw new CliInputError(
      `qa suite needs ${QA_PACKAGE}, a dependency of @tool-search/cli; reinstall the CLI: ${errorMessage(error)}`,
      { cause: error },
    );
  }
}

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

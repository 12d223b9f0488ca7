/**
 * `tool-search configure --section web`: asks for the web_search provider and its key, line by line on stdin (a
 * terminal or piped answers), validates the result like `config set`, then edits tool-search.json in place
 * (comments, quoting and layout kept). An empty answer keeps what is there; nothing is written until every answer
 * is in and the result is valid.
 */
import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Command } from 'commander';
import type { ToolSearchConfig } from '@tool-search/config';
import type { SearchProviderId } from '@tool-search/plugin-web';
import { CliInputError, CliUsageError, writeJson, type CliIO } from '../io.js';
import { withConfigOption, withJsonOption, type ConfigFlags, type JsonFlag } from '../options.js';
import { readConfigFile } from './config.js';

export const CONFIGURE_SECTIONS = ['web'] as const;

/** Where `configure --section web` stores each provider's key (OpenClaw's `tools.web.search` keys). */
export const SEARCH_KEY_PATHS: Readonly<Record<SearchProviderId, string>> = {
  brave: 'tools.web.search.apiKey',
  gemini: 'tools.web.search.gemini.apiKey',
  perplexity: 'tools.web.search.perplexity.apiKey',
  grok: 'tools.web.search.grok.apiKey',
  kimi: 'tools.web.search.kimi.apiKey',
};
const KEY_ENV: Readonly<Record<SearchProviderId, string>> = {
  brave: 'BRAVE_API_KEY',
  gemini: 'GEMINI_API_KEY',
  perplexity: 'PERPLEXITY_API_KEY or OPENROUTER_API_KEY',
  grok: 'XAI_API_KEY',
  kimi: 'KIMI_API_KEY or MOONSHOT_API_KEY',
};
/** A wrong answer is asked again this many times, then the command stops without writing. */
const ATTEMPTS = 3;

interface ConfigureFlags extends ConfigFlags, JsonFlag {
  readonly section: string;
}

export function registerConfigureCommand(program: Command, io: CliIO): void {
  withJsonOption(
    withConfigOption(
      program
        .command('configure')
        .description('set up a config section interactively (answers on stdin; empty keeps the current value)')
        .requiredOption('--section <name>', `section to set up: ${CONFIGURE_SECTIONS.join(', ')}`),
    ),
  ).action(async (flags: ConfigureFlags) => {
    if (!(CONFIGURE_SECTIONS as readonly string[]).includes(flags.section))
      throw new CliUsageError(`no section "${flags.section}"; sections: ${CONFIGURE_SECTIONS.join(', ')}`);
    const { CONFIG_FILE_NAME, getConfigValue, parseConfigValue, setConfigValue, setConfigValueInText, validateConfig } =
      await import('@tool-search/config');
    const file = resolve(io.cwd, flags.config ?? CONFIG_FILE_NAME);
    const { config, text } = await readConfigFile(file);
    const { checkWebConfig, SEARCH_PROVIDER_ORDER } = await (await import('@tool-search/preset')).loadWebPlugin();
    const answers = lineReader(io);
    let edits: [path: string, value: unknown][];
    try {
      edits = await webAnswers(config, answers, io, SEARCH_PROVIDER_ORDER);
    } finally {
      answers.close();
    }
    let next = config;
    for (const [path, value] of edits) next = setConfigValue(next, path, value);
    // Validate everything before anything is written: the config schema, then plugin-web's own rules for tools.web.
    validateConfig(next, file);
    checkWebConfig(next.tools?.web);
    let edited = text;
    for (const [path, value] of edits) edited = setConfigValueInText(edited, path, value);
    if (!isDeepStrictEqual(parseConfigValue(edited), next))
      throw new CliInputError(
        `${file}: could not edit the web section in place without changing anything else; nothing was written`,
      );
    if (edits.length) await writeFile(file, edited.endsWith('\n') ? edited : `${edited}\n`);
    const shown = edits.map(([path]) => ({
      key: path,
      value: path.endsWith('apiKey') ? '***' : getConfigValue(next, path),
    }));
    if (flags.json) writeJson(io, { ok: true, path: file, section: flags.section, changed: shown });
    else
      io.stdout.write(
        edits.length
          ? `${shown.map(({ key, value }) => `${key} = ${value === '***' ? value : JSON.stringify(value)}`).join('\n')}\n(${file})\n`
          : `nothing changed (${file})\n`,
      );
  });
}

/** The web section's questions: the provider (empty keeps it, or auto-detection), then its key (empty keeps it, or the environment). */
async function webAnswers(
  config: ToolSearchConfig,
  ask: LineReader,
  io: CliIO,
  SEARCH_PROVIDER_ORDER: readonly SearchProviderId[],
): Promise<[string, unknown][]> {
  const search = (config.tools?.web as { search?: { provider?: SearchProviderId } } | undefined)?.search;
  const current = search?.provider;
  let provider: SearchProviderId | undefined;
  for (let attempt = 1; provider === undefined; attempt++) {
    const answer = (
      await ask(
        `web_search provider (${SEARCH_PROVIDER_ORDER.join(', ')}) [${current ?? 'auto: the first with a key'}]: `,
      )
    )
      .trim()
      .toLowerCase();
    if (!answer) {
      if (!current) return [];
      provider = current;
    } else if ((SEARCH_PROVIDER_ORDER as readonly string[]).includes(answer)) provider = answer as SearchProviderId;
    else {
      io.stdout.write(`"${answer}" is not a provider; choose one of ${SEARCH_PROVIDER_ORDER.join(', ')}\n`);
      if (attempt >= ATTEMPTS)
        throw new CliInputError(`no valid web_search provider after ${ATTEMPTS} answers; nothing was written`);
    }
  }
  const keyPath = SEARCH_KEY_PATHS[provider];
  const { getConfigValue } = await import('@tool-search/config');
  const hasKey = getConfigValue(config, keyPath) !== undefined;
  const key = (
    await ask(
      `${provider} API key [${hasKey ? 'keep the current one' : `none: read ${KEY_ENV[provider]} from the environment`}]: `,
    )
  ).trim();
  const edits: [string, unknown][] = [];
  if (provider !== current) edits.push(['tools.web.search.provider', provider]);
  if (key) edits.push([keyPath, key]);
  return edits;
}

type LineReader = ((prompt: string) => Promise<string>) & { close(): void };

/** One answer per line from stdin; the input ending before an answer stops the command (nothing written). */
function lineReader(io: CliIO): LineReader {
  const input = io.stdin ?? process.stdin;
  const rl = createInterface({ input, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (prompt: string) => {
    io.stdout.write(prompt);
    const next = await lines.next();
    if (next.done) throw new CliInputError('stdin ended before every question was answered; nothing was written');
    if (!input.isTTY) io.stdout.write('\n');
    return next.value;
  };
  return Object.assign(ask, { close: () => rl.close() });
}

/**
 * Why a search may have missed: tool sources of the run that failed to list
 * their tools (an MCP server that did not start, timed out or is
 * unreachable). Read from the run's listing diagnostics only, so policy
 * decisions never show here: a denied tool is simply not in the index, and
 * nothing says it exists.
 */
import type { Diagnostic } from '@tool-search/kernel';
import { words } from './tokenize.js';
import type { UnavailableSource } from './types.js';

const STATES: Readonly<Record<string, UnavailableSource['state']>> = {
  MCP_SERVER_FAILED: 'failed',
  SOURCE_FAILED: 'failed',
  SOURCE_TIMEOUT: 'timeout',
  MCP_SERVER_UNAVAILABLE: 'unreachable',
};

/** Words of a server name that say nothing about it ("mcp", "server", npm scopes' punctuation). */
const BOILERPLATE = new Set(['mcp', 'server', 'servers', 'modelcontextprotocol', 'plugin', 'tool', 'search']);

/** The sources that failed to deliver, one entry per name (the first diagnostic wins). */
export function unavailableSources(diagnostics: readonly Diagnostic[]): UnavailableSource[] {
  const out = new Map<string, UnavailableSource>();
  for (const diagnostic of diagnostics) {
    const state = STATES[diagnostic.code];
    if (!state || diagnostic.level !== 'error') continue;
    const server = diagnostic.details?.['server'];
    const name = typeof server === 'string' && server ? server : diagnostic.plugin;
    if (name && !out.has(name)) out.set(name, { name, state, code: diagnostic.code });
  }
  return [...out.values()];
}

/**
 * The unavailable sources worth naming for `query`: all of them when nothing matched well (`weak`), else
 * those whose name the query mentions ("trello: put Priya on the card" while the trello server is down).
 */
export function missReasons(sources: readonly UnavailableSource[], query: string, weak: boolean): UnavailableSource[] {
  if (sources.length === 0) return [];
  if (weak) return [...sources];
  const asked = new Set(words(query));
  return sources.filter((source) =>
    words(source.name).some((word) => word.length > 2 && !BOILERPLATE.has(word) && asked.has(word)),
  );
}

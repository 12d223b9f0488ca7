/**
 * What of a descriptor goes into which index field. Descriptions are cleaned
 * first: fenced code, inline JSON and URLs say little about what a tool does
 * and drown the sentence that does (API wrappers paste whole example
 * responses). The first sentence (`lead`) feeds the tool's intent and its
 * server's document. Every field is cut to a fixed size so the build cost per
 * tool is bounded.
 */
import type { ToolDescriptor } from '@tool-search/kernel';
import { schemaText } from './schema-text.js';

const DESCRIPTION_CHARS = 1000;
const LEAD_CHARS = 240;
const NAME_CHARS = 200;

export interface DocText {
  readonly name: string;
  readonly title: string;
  readonly owner: string;
  readonly lead: string;
  /** The description after `lead`, in sentences. */
  readonly rest: readonly string[];
  /** Parameter names, then parameter descriptions. */
  readonly params: readonly string[];
}

export function docText(tool: ToolDescriptor): DocText {
  const description = cleanDescription(text(tool.description).slice(0, DESCRIPTION_CHARS)).trim();
  const lead = leadSentence(description);
  const schema = schemaText(tool.inputSchema);
  return {
    name: text(tool.name).slice(0, NAME_CHARS),
    title: text(tool.title).slice(0, NAME_CHARS),
    owner: ownerText(text(tool.owner).slice(0, NAME_CHARS)),
    lead,
    rest: sentences(description, lead.length),
    params: schema.names.concat(schema.descriptions),
  };
}

export function cleanDescription(text: string): string {
  // Each pass only when its trigger character is present: most descriptions are one plain sentence.
  let out = text;
  if (out.includes('```')) out = out.replace(/```[\s\S]*?(```|$)/g, ' ');
  if (out.includes('://')) out = out.replace(/https?:\/\/\S+/g, ' ');
  if (out.includes('{')) out = out.replace(/\{[^{}]{40,}\}/g, ' ');
  return out;
}

/**
 * Sentences (split at whitespace after `.`, `!`, `?` or a line break), for the vocabulary's cache of repeated
 * boilerplate. Splits only at whitespace, so the pieces tokenize exactly like the whole. Reads `text` from
 * `start` on (no slice first). The sentence ends are found by a plain regex, which scans in native code: a
 * char-code loop in JS cost ~4x as much, a lookbehind regex more still.
 */
export function sentences(text: string, start = 0): string[] {
  const out: string[] = [];
  let from = start;
  SENTENCE_END.lastIndex = start;
  for (let match = SENTENCE_END.exec(text); match !== null; match = SENTENCE_END.exec(text)) {
    // Cut at the whitespace after the mark, then skip the rest of the whitespace run.
    const space = match.index + 1;
    out.push(text.slice(from, space));
    from = space + 1;
    while (from < text.length && isSpace(text.charCodeAt(from))) from++;
    SENTENCE_END.lastIndex = from;
  }
  out.push(text.slice(from));
  return out;
}

/** A sentence mark followed by one of `isSpace`'s characters. */
const SENTENCE_END = /[.!?\n][ \t\n\v\f\r\u00a0\u2028\u2029\u3000]/g;

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0x3000;
}

/** The end of a first line, of a sentence (a mark before whitespace), or a full-width sentence mark. */
const LEAD_END = /\n|[.!?]\s|[。！？]/;

/** The first sentence (or line), bounded. */
export function leadSentence(text: string): string {
  const trimmed = text.trim();
  const limit = Math.min(trimmed.length, LEAD_CHARS);
  const end = trimmed.search(LEAD_END);
  if (end < 0 || end >= limit) return trimmed.slice(0, limit);
  // A line ends before its line break; a sentence ends with its mark.
  return trimmed.slice(0, trimmed.charCodeAt(end) === 10 ? end : end + 1);
}

/** Cleaned owner per raw owner: a catalog has few owners, and the regex costs more than the lookup. */
const owners = new Map<string, string>();
const MAX_OWNERS = 4096;

/** npm scopes and `mcp`/`server` boilerplate are not what a user calls a service. */
function ownerText(owner: string): string {
  let cleaned = owners.get(owner);
  if (cleaned === undefined) {
    cleaned = owner.replace(/\b(mcp|server|servers|model ?context ?protocol|modelcontextprotocol)\b/gi, ' ');
    if (owners.size >= MAX_OWNERS) owners.clear();
    owners.set(owner, cleaned);
  }
  return cleaned;
}

/** Descriptors are kernel-validated; this only keeps a malformed one from breaking the whole index. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

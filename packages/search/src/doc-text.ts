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
    rest: sentences(description.slice(lead.length)),
    params: [...schema.names, ...schema.descriptions],
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
 * boilerplate. Splits only at whitespace, so the pieces tokenize exactly like the whole. A char scan: a
 * lookbehind regex cost ~10 ms per 10,000 tools.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 1; i < text.length; i++) {
    if (!isSpace(text.charCodeAt(i))) continue;
    const p = text.charCodeAt(i - 1);
    if (p !== 46 && p !== 33 && p !== 63 && p !== 10) continue;
    out.push(text.slice(from, i));
    while (i + 1 < text.length && isSpace(text.charCodeAt(i + 1))) i++;
    from = i + 1;
  }
  out.push(text.slice(from));
  return out;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0x3000;
}

/** The first sentence (or line), bounded. */
export function leadSentence(text: string): string {
  const trimmed = text.trim();
  const limit = Math.min(trimmed.length, LEAD_CHARS);
  for (let i = 0; i < limit; i++) {
    const c = trimmed[i];
    if (c === '\n') return trimmed.slice(0, i);
    if ((c === '.' || c === '!' || c === '?') && /\s/.test(trimmed[i + 1] ?? '')) return trimmed.slice(0, i + 1);
    if (c === '。' || c === '！' || c === '？') return trimmed.slice(0, i + 1);
  }
  return trimmed.slice(0, limit);
}

/** npm scopes and `mcp`/`server` boilerplate are not what a user calls a service. */
function ownerText(owner: string): string {
  return owner.replace(/\b(mcp|server|servers|model ?context ?protocol|modelcontextprotocol)\b/gi, ' ');
}

/** Descriptors are kernel-validated; this only keeps a malformed one from breaking the whole index. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The score parts shown beside each hit: for every field the ranking weighs
 * (BM25F: name 3, server 2, title 1.5, description 1, parameters 0.4; see
 * @tool-search/search's README), the query words that field holds after Porter
 * stemming. The ranking itself also uses synonyms, the server lift and intent;
 * this shows the lexical evidence an operator can check by eye.
 */
import { stemmer } from 'stemmer';
import type { ToolDescriptor } from '@tool-search/kernel';
import type { ScorePart } from './types.js';

const FIELDS: readonly { field: ScorePart['field']; weight: number; text: (tool: ToolDescriptor) => string }[] = [
  { field: 'name', weight: 3, text: (tool) => tool.name },
  { field: 'server', weight: 2, text: (tool) => tool.owner },
  { field: 'title', weight: 1.5, text: (tool) => tool.title ?? '' },
  { field: 'description', weight: 1, text: (tool) => tool.description },
  { field: 'params', weight: 0.4, text: (tool) => paramText(tool) },
];

export function scoreParts(query: string, tool: ToolDescriptor | undefined): ScorePart[] {
  if (!tool) return [];
  const asked = [...new Set(words(query).filter((word) => !STOPWORDS.has(word)))];
  const parts: ScorePart[] = [];
  for (const { field, weight, text } of FIELDS) {
    const held = new Set(words(text(tool)).map(stemmer));
    const matched = asked.filter((word) => held.has(stemmer(word)));
    if (matched.length) parts.push({ field, weight, words: matched });
  }
  return parts;
}

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1);
}

function paramText(tool: ToolDescriptor): string {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  if (!properties || typeof properties !== 'object') return '';
  return Object.entries(properties as Record<string, { description?: unknown }>)
    .map(([name, schema]) => `${name} ${typeof schema?.description === 'string' ? schema.description : ''}`)
    .join(' ');
}

const STOPWORDS = new Set(
  'a an the and or for with from to of in on at by this that is are be it my me i you your please can could'.split(' '),
);

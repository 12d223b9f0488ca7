/**
 * Bounded walk over an input schema collecting parameter names and
 * descriptions for the index. Depth, node count and text size are capped so a
 * hostile schema (deep nesting, thousands of properties, megabyte strings)
 * costs a few microseconds, not the whole build budget.
 */
import type { JsonSchema } from '@tool-search/kernel';

/** Pieces, not joined text: parameter names and descriptions repeat across tools, so the indexer caches them. */
export interface SchemaText {
  readonly names: readonly string[];
  readonly descriptions: readonly string[];
}

const MAX_DEPTH = 3;
const MAX_NODES = 64;
const MAX_CHARS = 600;
const MAX_PIECE = 160;

export function schemaText(schema: JsonSchema): SchemaText {
  const names: string[] = [];
  const descriptions: string[] = [];
  let nodes = 0;
  let chars = 0;
  const push = (into: string[], text: unknown): void => {
    if (typeof text !== 'string' || chars >= MAX_CHARS) return;
    const piece = text.slice(0, Math.min(MAX_PIECE, MAX_CHARS - chars));
    chars += piece.length;
    into.push(piece);
  };
  const walk = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > MAX_DEPTH || nodes >= MAX_NODES) return;
    const record = node as JsonSchema;
    const props = record['properties'];
    if (props && typeof props === 'object' && !Array.isArray(props)) {
      // for-in so a schema with 100k properties stops after MAX_NODES, not after Object.entries copied them all.
      for (const name in props as JsonSchema) {
        if (++nodes > MAX_NODES) return;
        const child = (props as JsonSchema)[name];
        push(names, name);
        if (child && typeof child === 'object') {
          push(descriptions, (child as JsonSchema)['description']);
          walk(child, depth + 1);
        }
      }
    }
    const items = record['items'];
    if (items && typeof items === 'object' && !Array.isArray(items)) walk(items, depth + 1);
  };
  walk(schema, 0);
  return { names, descriptions };
}

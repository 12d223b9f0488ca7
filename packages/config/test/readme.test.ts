import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema, TOOL_SEARCH_MODES } from '../src/index.js';

// Keeps the README's option table true: every key it lists exists in the schema, every root key is listed.
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const tableKeys = [...readme.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!);

type Node = { properties?: Record<string, Node>; additionalProperties?: Node | boolean; items?: Node; anyOf?: Node[] };

function lookup(path: string): Node | undefined {
  let node: Node | undefined = configSchema as unknown as Node;
  for (const raw of path.split('.')) {
    const isList = raw.endsWith('[]');
    const key = isList ? raw.slice(0, -2) : raw;
    if (!node) return undefined;
    const props: Record<string, Node> =
      node.properties ?? node.anyOf?.find((branch) => branch.properties)?.properties ?? {};
    node = /^<.+>$/.test(key)
      ? (props[key] ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined))
      : props[key];
    if (isList) node = node?.items;
  }
  return node;
}

describe('README options table', () => {
  it('lists keys that exist in the schema', () => {
    expect(tableKeys.length).toBeGreaterThan(10);
    expect(tableKeys.filter((key) => lookup(key) === undefined)).toEqual([]);
  });

  it('lists every root section', () => {
    const roots = Object.keys(configSchema.properties).filter((key) => key !== '$schema');
    expect(roots.filter((root) => !tableKeys.some((key) => key === root || key.startsWith(`${root}.`)))).toEqual([]);
  });
});

describe('README modes', () => {
  it('names the modes of the one list', () => {
    const listed = /mode: ([a-z|]+),/.exec(readme)?.[1]?.split('|');
    expect(listed).toEqual([...TOOL_SEARCH_MODES]);
  });
});

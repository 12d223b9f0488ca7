/**
 * `snapshot`: the page as the model reads it. `ai` is Playwright's AI aria snapshot (YAML with `[ref=e12]`), `aria`
 * a flat node list with numeric refs (`12`). Playwright's own refs carry a frame prefix after a navigation (`f3e2`),
 * so each snapshot renumbers them `e1…eN` and keeps the mapping: the tab's latest snapshot decides what a ref means.
 * Role-snapshot options: `interactive` (only elements one can act on, flat), `compact` (drop unnamed containers),
 * `depth`, `selector` (a CSS selector for the subtree).
 */
import type { Locator, Page } from 'playwright-core';

export interface SnapshotOptions {
  readonly format: 'ai' | 'aria';
  readonly interactive?: boolean;
  readonly compact?: boolean;
  readonly depth?: number;
  readonly selector?: string;
  readonly maxChars: number;
  readonly limit: number;
  readonly timeoutMs: number;
}

export interface AriaNode {
  readonly ref?: string;
  readonly role: string;
  readonly name?: string;
  readonly depth: number;
  readonly [property: string]: unknown;
}

export type Snapshot = (
  | { readonly format: 'ai'; readonly snapshot: string; readonly refs: number; readonly truncated: boolean }
  | { readonly format: 'aria'; readonly nodes: readonly AriaNode[]; readonly refs: number; readonly truncated: boolean }
) & { readonly refMap: ReadonlyMap<string, string> };

/** Renames Playwright refs to `e1…eN` in order of appearance. */
class RefNames {
  readonly map = new Map<string, string>();
  readonly #byPlaywright = new Map<string, string>();
  name(playwrightRef: string): string {
    let ours = this.#byPlaywright.get(playwrightRef);
    if (!ours) {
      ours = `e${this.map.size + 1}`;
      this.#byPlaywright.set(playwrightRef, ours);
      this.map.set(ours, playwrightRef);
    }
    return ours;
  }
}

const INTERACTIVE = new Set([
  'button',
  'checkbox',
  'combobox',
  'link',
  'listbox',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'treeitem',
]);

interface JsonNode {
  role: string;
  name?: string;
  ref?: string;
  cursor?: string;
  children?: (JsonNode | string)[];
  [property: string]: unknown;
}

export async function takeSnapshot(page: Page, options: SnapshotOptions): Promise<Snapshot> {
  const root: Page | Locator = options.selector ? page.locator(options.selector).first() : page;
  const common = {
    mode: 'ai' as const,
    timeout: options.timeoutMs,
    ...(options.depth !== undefined ? { depth: options.depth } : {}),
  };
  const names = new RefNames();
  if (options.format === 'ai' && !options.interactive) {
    let text = (await root.ariaSnapshot(common)).replace(
      /\[ref=([\w-]+)\]/g,
      (_match, ref: string) => `[ref=${names.name(ref)}]`,
    );
    if (options.compact) text = compactYaml(text);
    const truncated = text.length > options.maxChars;
    return {
      format: 'ai',
      snapshot: truncated
        ? `${text.slice(0, options.maxChars)}\n… (truncated: use selector, depth or interactive for less)`
        : text,
      refs: names.map.size,
      truncated,
      refMap: names.map,
    };
  }
  const tree = (await root.ariaSnapshotJSON(common)) as unknown as JsonNode[] | JsonNode;
  const nodes = flatten(Array.isArray(tree) ? tree : [tree], options, names);
  if (options.format === 'ai') {
    const lines = nodes.map(
      (node) =>
        `- ${node.role}${node.name ? ` ${JSON.stringify(node.name)}` : ''}${node.ref ? ` [ref=e${node.ref}]` : ''}`,
    );
    const text = lines.join('\n');
    const truncated = text.length > options.maxChars;
    return {
      format: 'ai',
      snapshot: truncated ? `${text.slice(0, options.maxChars)}\n… (truncated)` : text,
      refs: nodes.length,
      truncated,
      refMap: names.map,
    };
  }
  const truncated = nodes.length > options.limit;
  const kept = nodes.slice(0, options.limit);
  return { format: 'aria', nodes: kept, refs: kept.filter((node) => node.ref).length, truncated, refMap: names.map };
}

/** `e12` and `12` name the same element. */
export function normalizeRef(ref: string): string {
  const trimmed = ref
    .trim()
    .replace(/^\[?ref=/, '')
    .replace(/\]$/, '');
  return /^\d+$/.test(trimmed) ? `e${trimmed}` : trimmed;
}

function flatten(roots: (JsonNode | string)[], options: SnapshotOptions, names: RefNames): AriaNode[] {
  const out: AriaNode[] = [];
  const visit = (node: JsonNode | string, depth: number) => {
    if (typeof node === 'string') return;
    const { role, name, ref, children, cursor, ...properties } = node;
    const actionable = INTERACTIVE.has(role) || cursor === 'pointer';
    const unnamedContainer = !name && (role === 'generic' || role === 'none' || role === 'presentation');
    const keep = options.interactive ? actionable && ref : !(options.compact && unnamedContainer);
    if (keep) {
      const text =
        typeof properties.text === 'string'
          ? properties.text
          : (children ?? [])
              .filter((child): child is string => typeof child === 'string')
              .join(' ')
              .trim();
      out.push({
        ...(ref ? { ref: names.name(ref).slice(1) } : {}),
        role,
        ...(name ? { name } : {}),
        depth,
        ...scalarProperties(properties),
        ...(text && !name && !properties.text ? { text: text.slice(0, 500) } : {}),
      });
    }
    for (const child of children ?? []) visit(child, keep && !options.interactive ? depth + 1 : depth);
  };
  for (const root of roots) visit(root, 0);
  return out;
}

function scalarProperties(properties: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(properties).filter(
      ([key, value]) =>
        key !== 'box' && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'),
    ),
  );
}

/** Drops unnamed container lines (`- generic [ref=e3]:`) and lifts their children one level. */
export function compactYaml(text: string): string {
  const out: string[] = [];
  const dropped: number[] = []; // indents of dropped containers still open
  for (const line of text.split('\n')) {
    const indent = line.length - line.trimStart().length;
    while (dropped.length && indent <= dropped.at(-1)!) dropped.pop();
    if (/^- (generic|none|presentation)( \[[^\]]*\])*:$/.test(line.trim())) {
      dropped.push(indent);
      continue;
    }
    out.push(' '.repeat(Math.max(0, indent - 2 * dropped.length)) + line.trimStart());
  }
  return out.join('\n');
}

/**
 * Plugin guidance ("skills"): usage text that reaches the model only for tools
 * in the effective catalog that it can see (exposed) or has described, within
 * a character budget. Text is third-party input: control characters are
 * stripped and each entry is cut.
 */
import type { ToolDescriptor, ToolGuidance } from './types.js';

const ENTRY_LIMIT = 1000;
export const DEFAULT_GUIDANCE_BUDGET = 4000;

export interface GuidanceEntry {
  readonly plugin: string;
  readonly title: string;
  readonly text: string;
  readonly toolIds: readonly string[];
}

/** Resolves each entry's tool names/ids against the effective catalog; entries about no allowed tool vanish. */
export function resolveGuidance(
  raw: readonly { plugin: string; guidance: ToolGuidance }[],
  catalog: readonly ToolDescriptor[],
): GuidanceEntry[] {
  const entries: GuidanceEntry[] = [];
  for (const { plugin, guidance } of raw) {
    if (!guidance || typeof guidance.text !== 'string' || !Array.isArray(guidance.tools)) continue;
    const wanted = new Set(guidance.tools);
    const toolIds = catalog.filter((t) => wanted.has(t.id) || wanted.has(t.name)).map((t) => t.id);
    if (toolIds.length === 0) continue;
    entries.push({
      plugin,
      title: clean(String(guidance.title ?? plugin), 80),
      text: clean(guidance.text, ENTRY_LIMIT),
      toolIds,
    });
  }
  return entries.sort((a, b) =>
    a.plugin + a.title < b.plugin + b.title ? -1 : a.plugin + a.title > b.plugin + b.title ? 1 : 0,
  );
}

export function renderGuidance(
  entries: readonly GuidanceEntry[],
  toolIds: readonly string[],
  budget = DEFAULT_GUIDANCE_BUDGET,
): string {
  const visible = new Set(toolIds);
  const parts: string[] = [];
  let used = 0;
  let left = 0;
  for (const entry of entries) {
    if (!entry.toolIds.some((id) => visible.has(id))) continue;
    const block = `### ${entry.title}\n${entry.text}`;
    if (used + block.length > budget) {
      left++;
      continue;
    }
    parts.push(block);
    used += block.length + 2;
  }
  if (parts.length === 0) return '';
  return `## Tool guidance\n${parts.join('\n\n')}${left ? `\n\n(${left} more guidance entries left out for size)` : ''}`;
}

function clean(text: string, limit: number): string {
  const stripped = text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips control and bidi characters from guidance text
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  return stripped.length > limit ? `${stripped.slice(0, limit - 1)}…` : stripped;
}

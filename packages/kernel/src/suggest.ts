/** Closest-id suggestions for a miss ("did you mean …"), drawn only from the effective catalog. */
import type { ToolDescriptor } from './types.js';

export function suggestIds(requested: string, tools: readonly ToolDescriptor[], count = 3): string[] {
  const wanted = requested.toLowerCase();
  const wantedTokens = new Set(tokens(wanted));
  return tools
    .map((tool) => {
      const name = tool.name.toLowerCase();
      const distance = Math.min(editDistance(wanted, name), editDistance(wanted, tool.id.toLowerCase()));
      const shared = tokens(`${tool.id} ${tool.name}`.toLowerCase()).filter((token) => wantedTokens.has(token)).length;
      return { id: tool.id, score: shared * 2 - distance / Math.max(wanted.length, 1) };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, count)
    .map((entry) => entry.id);
}

function tokens(text: string): string[] {
  return text.split(/[^a-z0-9]+/).filter(Boolean);
}

/** Edit distance (Levenshtein); long strings are compared by length only, so a hostile name costs little. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length > 200 || b.length > 200) return Math.abs(a.length - b.length) + Math.min(a.length, b.length);
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Which `toolSearch` setting applies to a run, as `tools explain`, `exposure`, `gateway` and `serve mcp` report and
 * use it: the preset decides (`appliedToolSearch`); this adds the line the CLI prints.
 */
import type { AppliedToolSearch, appliedToolSearch as presetApplied } from '@tool-search/preset';

export type { AppliedToolSearch } from '@tool-search/preset';

/** The preset's `appliedToolSearch`, imported when a command runs (not when the command table loads for `--help`). */
export async function appliedToolSearch(...args: Parameters<typeof presetApplied>): Promise<AppliedToolSearch> {
  const { appliedToolSearch: applied } = await import('@tool-search/preset');
  return applied(...args);
}

export function appliedText(applied: AppliedToolSearch): string {
  return `exposure mode ${applied.mode} (from ${applied.sources.join(' → ')})`;
}

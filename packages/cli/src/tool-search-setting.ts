/**
 * Which `toolSearch` setting applies to a run, as `tools explain`, `exposure`, `gateway` and `serve mcp` report and
 * use it: the preset decides (`appliedToolSearch`); this adds the line the CLI prints.
 */
import type { AppliedToolSearch } from '@tool-search/preset';

export { appliedToolSearch, runSettingOf, searchLimitsOf } from '@tool-search/preset';
export type { AppliedToolSearch } from '@tool-search/preset';

export function appliedText(applied: AppliedToolSearch): string {
  return `exposure mode ${applied.mode} (from ${applied.sources.join(' → ')})`;
}

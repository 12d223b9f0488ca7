/**
 * Who a downstream tool is for, read from its MCP `_meta`:
 * - `_meta.ui.visibility` (MCP Apps, `@modelcontextprotocol/ext-apps`): an array of `"model"` and `"app"`, default
 *   both. Without `"model"` the tool is app-only: its app calls it, the model never sees it. It is listed `hidden`
 *   (the kernel keeps it out of every search and exposure; a front end calls it by id, `serve mcp` for the app).
 * - `_meta["anthropic/alwaysLoad"]: true` (as Claude Code reads it): never deferred, so it is listed `direct-only`,
 *   visible in every mode like a pinned (`alwaysVisible`) tool.
 * App-only wins over alwaysLoad. Policy still applies to both: a denied tool is in no catalog.
 */
import type { CatalogMode } from '@tool-search/kernel';

export const ALWAYS_LOAD_META_KEY = 'anthropic/alwaysLoad';

/** The catalog mode a tool's `_meta` asks for; `catalog` (searchable) when it asks for nothing. */
export function catalogModeOf(meta: Readonly<Record<string, unknown>> | undefined): CatalogMode {
  if (isAppOnly(meta)) return 'hidden';
  return meta?.[ALWAYS_LOAD_META_KEY] === true ? 'direct-only' : 'catalog';
}

/** True when `_meta.ui.visibility` is a list that leaves out `"model"` (`["app"]`). */
export function isAppOnly(meta: Readonly<Record<string, unknown>> | undefined): boolean {
  const ui = meta?.ui;
  if (typeof ui !== 'object' || ui === null) return false;
  const visibility = (ui as { visibility?: unknown }).visibility;
  return Array.isArray(visibility) && !visibility.includes('model');
}

/**
 * The reversible names of aggregated resources and prompts. A downstream
 * server's resource `<uri>` is listed as `tool-search://<server>/<uri>` (its
 * templates likewise, so a client's expansion keeps the prefix), a prompt
 * `<name>` as `<server>:<name>`. Server names hold neither `/` nor `:`, so
 * the first one splits exactly. The original form is accepted too when one
 * visible server owns it (like hidden names in directory mode).
 */
export const RESOURCE_URI_PREFIX = 'tool-search://';
export const PROMPT_SEPARATOR = ':';

export interface Namespaced {
  readonly server: string;
  /** The name or URI as the downstream server knows it. */
  readonly original: string;
}

export function resourceUri(server: string, uri: string): string {
  return `${RESOURCE_URI_PREFIX}${server}/${uri}`;
}

/** `tool-search://<server>/<uri>` → `{ server, original: uri }`; anything else → undefined. */
export function parseResourceUri(uri: string): Namespaced | undefined {
  if (!uri.startsWith(RESOURCE_URI_PREFIX)) return undefined;
  const rest = uri.slice(RESOURCE_URI_PREFIX.length);
  const slash = rest.indexOf('/');
  return slash > 0 ? { server: rest.slice(0, slash), original: rest.slice(slash + 1) } : undefined;
}

export function promptName(server: string, name: string): string {
  return `${server}${PROMPT_SEPARATOR}${name}`;
}

/** `<server>:<name>` → `{ server, original: name }`; a name without `:` → undefined. */
export function parsePromptName(name: string): Namespaced | undefined {
  const at = name.indexOf(PROMPT_SEPARATOR);
  return at > 0 ? { server: name.slice(0, at), original: name.slice(at + 1) } : undefined;
}

/** The `_meta` key of MCP Apps before `_meta.ui.resourceUri` (`@modelcontextprotocol/ext-apps`: `RESOURCE_URI_META_KEY`). */
export const LEGACY_UI_RESOURCE_KEY = 'ui/resourceUri';

/**
 * A downstream tool's `_meta` with its MCP Apps UI resource (`_meta.ui.resourceUri`, and the older
 * `_meta["ui/resourceUri"]`) named as `resources/list` names it here, so a host reads the app through serve mcp.
 * Everything else in `_meta` is kept as the server sent it.
 */
export function namespaceToolMeta(meta: Readonly<Record<string, unknown>>, server: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...meta };
  const ui = meta.ui;
  if (
    ui &&
    typeof ui === 'object' &&
    !Array.isArray(ui) &&
    typeof (ui as { resourceUri?: unknown }).resourceUri === 'string'
  ) {
    out.ui = { ...ui, resourceUri: resourceUri(server, (ui as { resourceUri: string }).resourceUri) };
  }
  const legacy = meta[LEGACY_UI_RESOURCE_KEY];
  if (typeof legacy === 'string') out[LEGACY_UI_RESOURCE_KEY] = resourceUri(server, legacy);
  return out;
}

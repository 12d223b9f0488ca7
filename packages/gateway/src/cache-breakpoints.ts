/**
 * Prompt caching on the Anthropic upstream, as Anthropic documents it ("Prompt caching", "Tool use with prompt
 * caching"): the API caches only what a request asks for, in the order tools, system, messages, with at most 4
 * breakpoints; a prefix under the model's minimum is simply not cached (the provider's concern). The gateway asks
 * for three, at places that stay put across the turns of every mode:
 * - the session's stable tools (the exposure: the catalog), on the last custom tool that is not deferred: a
 *   `defer_loading` tool is not in the cached prefix (tool search adds it inline, "defer_loading and prompt
 *   caching"), and tools a turn appends (loaded, or a client's passed through) come after the mark, so it does not
 *   move as they arrive; server tools (code execution) are left as they are;
 * - the system text, as one text block (it follows the tools: this covers every tool sent);
 * - the conversation, by the request-level `cache_control` (automatic caching: the API marks the last cacheable
 *   block and moves the mark forward as the conversation grows), so no message block changes between requests.
 * A client's own marks do not reach the provider (front/messages.ts): the request stays within the limit.
 */
export const CACHE_CONTROL = { type: 'ephemeral' } as const;
/** The API's limit on `cache_control` breakpoints in one request (the request-level one included). */
export const MAX_BREAKPOINTS = 4;

/** `,"cache_control":{…}`: the request-level field (automatic caching of the conversation). */
export const REQUEST_CACHE_CONTROL = `,"cache_control":${JSON.stringify(CACHE_CONTROL)}`;

/** `system` as one text block carrying a breakpoint. */
export function cachedSystemJson(text: string): string {
  return JSON.stringify([{ type: 'text', text, cache_control: CACHE_CONTROL }]);
}

/** The tools with one breakpoint, on the last custom tool that is not deferred; one entry remembered (a session's tools). */
export function toolsMarker(): (toolsJson: string) => string {
  let last: { from: string; to: string } | undefined;
  return (toolsJson) => {
    if (last?.from !== toolsJson) last = { from: toolsJson, to: markTools(toolsJson) };
    return last.to;
  };
}

function markTools(toolsJson: string): string {
  const tools = JSON.parse(toolsJson) as Record<string, unknown>[];
  let mark = -1;
  tools.forEach((tool, i) => {
    if (tool.defer_loading !== true && (tool.type === undefined || tool.type === 'custom')) mark = i;
  });
  if (mark < 0) return toolsJson;
  return JSON.stringify(tools.map((tool, i) => (i === mark ? { ...tool, cache_control: CACHE_CONTROL } : tool)));
}

/**
 * App-only tools (MCP Apps, `_meta.ui.visibility: ["app"]`): plugin-mcp lists them `hidden`, so no exposure shows
 * them and no search finds them, but an app calls them through its host, which sends a plain `tools/call` with the
 * tool's own name. A name the exposure does not answer is looked up among the run's hidden tools (its effective
 * catalog: a tool policy denies is not there) and called as the front end (origin `api`), which is the only origin
 * the kernel lets reach a hidden tool. Two hidden tools of one name: neither is guessed, the call names its id.
 */
import {
  ErrorCode,
  ToolSearchError,
  errorMessage,
  type CallOptions,
  type Run,
  type RunExposure,
  type ToolCallOutcome,
  type ToolDescriptor,
} from '@tool-search/kernel';

/** The hidden tool of the run `name` (an MCP name or a tool id) means, when exactly one does. */
export function hiddenTool(run: Run, name: string): ToolDescriptor | undefined {
  const hidden = run.catalog.filter((tool) => tool.catalogMode === 'hidden');
  const byId = hidden.find((tool) => tool.id === name);
  if (byId) return byId;
  const named = hidden.filter((tool) => tool.name === name);
  return named.length === 1 ? named[0] : undefined;
}

/**
 * A client's `tools/call`: by the exposure; a name it does not answer goes to a catalog tool the client was listed
 * (`listed`, tool-reference.ts: the model's own call, origin `direct`), else to a hidden (app-only) tool (origin `api`).
 */
export async function callExposed(
  run: Run,
  exposure: RunExposure,
  name: string,
  args: unknown,
  options: Omit<CallOptions, 'origin'>,
  listed?: ReadonlyMap<string, ToolDescriptor>,
): Promise<ToolCallOutcome> {
  if (exposure.has(name)) return exposure.call(name, args, options);
  const referenced = listed?.get(name);
  const hidden = referenced ? undefined : hiddenTool(run, name);
  const target = referenced ?? hidden;
  if (!target) return exposure.call(name, args, options);
  try {
    return await run.call(target.id, args, { ...options, origin: referenced ? 'direct' : 'api' });
  } catch (error) {
    // As `exposure.call` does: only a closed run escapes; anything else is an outcome the client reads.
    const code = ToolSearchError.isInstance(error) ? error.code : ErrorCode.TOOL_EXECUTION_FAILED;
    if (code === ErrorCode.RUN_CLOSED) throw error;
    return { status: 'error', callId: '', toolId: target.id, error: { code, message: errorMessage(error) } };
  }
}

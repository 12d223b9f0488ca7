/**
 * The parent side of `openclaw.tools.*`: each request from the sandbox runs
 * here, through the run (search and describe on the run's index, calls via
 * `run.call` with origin 'code', so policy, `beforeToolCall`, argument
 * validation and telemetry apply). Everything returned is plain JSON data.
 */
import {
  ErrorCode,
  ToolSearchError,
  type AnyErrorCode,
  type RunApi,
  type ToolCallOutcome,
  type ToolResult,
  errorMessage,
} from '@tool-search/kernel';
import { emitSearch, readDescribedSkill, withSkillKinds } from '@tool-search/control-tools';
import { indexForRun, type ToolIndexOptions } from '@tool-search/search';
import type { BridgeError, BridgeOp } from './sandbox/protocol.js';
import { CodeErrors } from './errors.js';

export type BridgeAnswer =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: BridgeError };

export interface Bridge {
  handle(op: BridgeOp, payload: unknown, signal: AbortSignal): Promise<BridgeAnswer>;
}

const MAX_QUERIES = 20;

export function createBridge(run: RunApi, indexOptions: ToolIndexOptions): Bridge {
  const index = () => indexForRun(run, indexOptions);

  const handlers: Record<
    BridgeOp,
    (payload: Record<string, unknown>, signal: AbortSignal) => Promise<unknown> | unknown
  > = {
    // Through the run's search rerank hooks (hybrid ranking when an embedder plugin is there; lexical otherwise).
    async search(payload) {
      const query = payload.query;
      const limit = readLimit(payload.options);
      const started = performance.now(); // the ranking's time goes on the search event (metrics' search latency)
      if (typeof query === 'string') {
        const ranked = await index().searchRanked(query, limit === undefined ? {} : { limit });
        emitSearch(run, [query], ranked, 'code', performance.now() - started);
        return withSkillKinds(ranked.result);
      }
      if (
        Array.isArray(query) &&
        query.length <= MAX_QUERIES &&
        query.every((q): q is string => typeof q === 'string')
      ) {
        if (readFuse(payload.options) && query.length > 0) {
          // Several phrasings of one need: one ranked list (reciprocal-rank fusion in the index).
          const ranked = await index().searchRanked(query, { ...(limit === undefined ? {} : { limit }), fuse: true });
          emitSearch(run, query, ranked, 'code', performance.now() - started);
          return withSkillKinds(ranked.result);
        }
        const ranked = await index().searchRanked(query, limit === undefined ? {} : { limit });
        emitSearch(run, query, ranked, 'code', performance.now() - started);
        return withSkillKinds(ranked.result);
      }
      throw fault(
        CodeErrors.CODE_INVALID,
        `openclaw.tools.search(query) takes a string or an array of at most ${MAX_QUERIES} strings`,
      );
    },

    async describe(payload, signal) {
      const requested = payload.id;
      if (typeof requested !== 'string')
        throw fault(CodeErrors.CODE_INVALID, 'openclaw.tools.describe(id) takes a tool id string');
      const description = index().describe(requested);
      run.emit({ type: 'describe', toolId: description?.id ?? null, requested, origin: 'code' });
      if (!description) throw unknownTool(requested, index().suggest(requested));
      const guidance = typeof run.guidanceFor === 'function' ? run.guidanceFor([description.id]) : '';
      // An MCP server's skill (SEP-2640) is described with its SKILL.md, read through the run.
      const skill = await readDescribedSkill(run, description, 'code', signal);
      const read =
        skill?.text !== undefined
          ? { kind: 'skill', skill: skill.text }
          : skill
            ? { kind: 'skill', skillError: skill.error }
            : {};
      return { ...description, ...read, ...(guidance ? { guidance } : {}) };
    },

    async call(payload, signal) {
      const id = payload.id;
      if (typeof id !== 'string')
        throw fault(CodeErrors.CODE_INVALID, 'openclaw.tools.call(id, args) takes a tool id string');
      // A client tool is decided by the kernel: handed to the run's owner (the script waits within codeTimeoutMs) or refused.
      const outcome = await run.call(id, payload.args ?? {}, { origin: 'code', signal });
      return resultOf(outcome);
    },
  };

  return {
    async handle(op, payload, signal) {
      try {
        const body =
          typeof payload === 'object' && payload !== null && !Array.isArray(payload)
            ? (payload as Record<string, unknown>)
            : {};
        return { ok: true, value: await handlers[op](body, signal) };
      } catch (error) {
        return { ok: false, error: toBridgeError(error) };
      }
    },
  };
}

/** `openclaw.tools.call` resolves to the tool's own result; a blocked or failed call rejects with its code. */
function resultOf(outcome: ToolCallOutcome): ToolResult {
  switch (outcome.status) {
    case 'ok':
      return outcome.result;
    case 'blocked':
      throw new ToolSearchError(
        ErrorCode.TOOL_CALL_BLOCKED,
        `the call to ${outcome.toolId} was blocked by ${outcome.by}: ${outcome.reason}`,
        {
          toolId: outcome.toolId,
          details: { toolId: outcome.toolId, by: outcome.by, reason: outcome.reason },
        },
      );
    case 'error':
      throw new ToolSearchError(outcome.error.code, outcome.error.message, {
        toolId: outcome.toolId,
        details: { toolId: outcome.toolId },
      });
    case 'pending':
      throw clientTool(outcome.name);
  }
}

function readLimit(options: unknown): number | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const limit = (options as { limit?: unknown }).limit;
  return typeof limit === 'number' && Number.isFinite(limit) ? limit : undefined;
}

function readFuse(options: unknown): boolean {
  return typeof options === 'object' && options !== null && (options as { fuse?: unknown }).fuse === true;
}

function fault(code: AnyErrorCode, message: string): ToolSearchError {
  return new ToolSearchError(code, message);
}

function unknownTool(requested: string, suggestions: readonly string[]): ToolSearchError {
  return new ToolSearchError(
    ErrorCode.UNKNOWN_TOOL,
    `unknown tool id "${requested}"` +
      (suggestions.length ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : ''),
    { details: { requested, suggestions: [...suggestions] } },
  );
}

function clientTool(name: string): ToolSearchError {
  return new ToolSearchError(
    ErrorCode.CLIENT_TOOL_NOT_EXECUTABLE,
    `"${name}" is executed by the client and cannot be called from code; call the tool "${name}" directly instead`,
  );
}

function toBridgeError(error: unknown): BridgeError {
  if (ToolSearchError.isInstance(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: JSON.parse(JSON.stringify(error.details)) as unknown } : {}),
    };
  }
  return { code: ErrorCode.TOOL_EXECUTION_FAILED, message: errorMessage(error) };
}

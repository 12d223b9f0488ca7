/**
 * Interceptors the kernel installs on its own hooks so plugins cannot weaken
 * it: a `beforeToolCall` tap that throws blocks the call (fail closed) and
 * every decision is tagged with the plugin that made it; a `materialize` tap
 * that throws is reported with its plugin name; an `afterToolCall` observer
 * that throws is recorded (`OBSERVER_FAILED`, its plugin, the cause) and the
 * other observers still run.
 */
import { ErrorCode, ToolSearchError } from '../errors.js';
import type { KernelHooks } from '../hooks.js';
import type { CallContext, CallDecision, ToolCall, ToolCallOutcome } from '../types.js';
import { errorMessage } from '../error-message.js';

/** A decision as the kernel sees it: tagged with the plugin (tap name) that made it. */
export type TaggedDecision = CallDecision & { readonly by: string };

/** Reads the tag the guard added; every decision the hook returns passed through the guard. */
export function decidedBy(decision: CallDecision): string {
  return (decision as Partial<TaggedDecision>).by ?? 'unknown';
}

export function guardCallTaps(hooks: KernelHooks): void {
  hooks.beforeToolCall.intercept({
    name: '@tool-search/kernel:call-guard',
    register: (tap) => {
      const original = tap.fn as (call: ToolCall, ctx: CallContext) => unknown;
      const fn = async (call: ToolCall, ctx: CallContext): Promise<TaggedDecision | undefined> => {
        try {
          const decision = (await original(call, ctx)) as CallDecision | undefined;
          if (decision === undefined || decision === null) return undefined;
          if (decision.action !== 'block' && decision.action !== 'replace') {
            return {
              action: 'block',
              reason: `Plugin "${tap.name}" returned an invalid decision; the call was blocked`,
              by: tap.name,
            };
          }
          return { ...decision, by: tap.name };
        } catch (error) {
          return {
            action: 'block',
            reason: `Plugin "${tap.name}" failed while checking the call (${errorMessage(error)}); the call was blocked`,
            by: tap.name,
          };
        }
      };
      return { ...tap, type: 'promise', fn };
    },
  });
}

export function guardMaterializeTaps(hooks: KernelHooks): void {
  hooks.materialize.intercept({
    factory: (key, hook) => {
      hook.intercept({
        name: '@tool-search/kernel:materialize-guard',
        register: (tap) => {
          const original = tap.fn as (...args: unknown[]) => unknown;
          const fn = async (...args: unknown[]) => {
            try {
              return await original(...args);
            } catch (error) {
              if (ToolSearchError.isInstance(error)) throw error;
              throw new ToolSearchError(
                ErrorCode.MATERIALIZE_FAILED,
                `Mode plugin "${tap.name}" failed to materialize "${String(key)}": ${errorMessage(error)}`,
                {
                  plugin: tap.name,
                  hook: 'materialize',
                  cause: error,
                },
              );
            }
          };
          return { ...tap, type: 'promise', fn };
        },
      });
      return hook;
    },
  });
}

/** Observer failures of each call, keyed by its (frozen, per-call) `ToolCall`, until the run takes them. */
const observerFailures = new WeakMap<ToolCall, ToolSearchError[]>();

/** The `afterToolCall` failures recorded for `call` (each `OBSERVER_FAILED`, naming its plugin, with the cause). */
export function takeObserverFailures(call: ToolCall): ToolSearchError[] {
  const failures = observerFailures.get(call) ?? [];
  observerFailures.delete(call);
  return failures;
}

export function guardObserverTaps(hooks: KernelHooks): void {
  hooks.afterToolCall.intercept({
    name: '@tool-search/kernel:observer-guard',
    register: (tap) => {
      const original = tap.fn as (call: ToolCall, outcome: ToolCallOutcome, ctx: CallContext) => unknown;
      const fn = async (call: ToolCall, outcome: ToolCallOutcome, ctx: CallContext): Promise<void> => {
        try {
          await original(call, outcome, ctx);
        } catch (error) {
          const reason = errorMessage(error);
          const failure = new ToolSearchError(
            ErrorCode.OBSERVER_FAILED,
            `afterToolCall observer "${tap.name}" failed after ${call.tool.id} ran: ${reason}`,
            {
              plugin: tap.name,
              hook: 'afterToolCall',
              toolId: call.tool.id,
              cause: error,
              details: { callId: call.callId, status: outcome.status },
            },
          );
          observerFailures.set(call, [...(observerFailures.get(call) ?? []), failure]);
        }
      };
      return { ...tap, type: 'promise', fn };
    },
  });
}

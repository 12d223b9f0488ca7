/**
 * Interceptors the kernel installs on its own hooks so plugins cannot weaken
 * it: a `beforeToolCall` tap that throws blocks the call (fail closed) and
 * every decision is tagged with the plugin that made it; a `materialize` tap
 * that throws is reported with its plugin name.
 */
import { ErrorCode, ToolSearchError } from '../errors.js';
import type { KernelHooks } from '../hooks.js';
import type { CallContext, CallDecision, ToolCall } from '../types.js';
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
            return { action: 'block', reason: `Plugin "${tap.name}" returned an invalid decision; the call was blocked`, by: tap.name };
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
              throw new ToolSearchError(ErrorCode.MATERIALIZE_FAILED, `Mode plugin "${tap.name}" failed to materialize "${String(key)}": ${errorMessage(error)}`, {
                plugin: tap.name,
                hook: 'materialize',
                cause: error,
              });
            }
          };
          return { ...tap, type: 'promise', fn };
        },
      });
      return hook;
    },
  });
}

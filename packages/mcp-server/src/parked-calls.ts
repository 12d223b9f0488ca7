/**
 * Parked 2026-07-28 calls across replicas. A call waiting for the client's
 * `input_required` answers is a live thing (a downstream request in flight,
 * a promise in this process), so it cannot move; what moves is the retry.
 * Each parked call has a record in the state store,
 * `mcp:parked:<sha256(requestState)>` = `{ replica, owner: sha256(owner) }`
 * (TTL: the bridge's idle time; neither the state nor the caller is stored
 * in the clear). A retry landing on a replica that does not hold the call
 * reads the record and, when it belongs to the caller, relays the retry to
 * the holder on the `mcp:parked` channel (the store's pub/sub, like the
 * legacy session relay): the holder acknowledges at once, resumes the call,
 * sends a heartbeat while it runs, and publishes the next step (the result,
 * or the next round's questions); the replica that got the retry answers the
 * client with it. A holder that does not acknowledge, or goes silent, is
 * `MCP_PARKED_CALL_LOST` (call again); a store that does not answer is
 * `STATE_UNAVAILABLE`: typed errors, never a hang.
 */
import { createHash, randomUUID } from 'node:crypto';
import { errorMessage, ToolSearchError, type Logger } from '@tool-search/kernel';
import type { StateStore } from '@tool-search/state';
import { McpServerErrors } from './errors.js';
import type { BridgeHooks, BridgeStep, InputBridge } from './input-bridge.js';

export const PARKED_CHANNEL = 'mcp:parked';

export interface ParkedCallsOptions {
  readonly state: StateStore;
  readonly logger: Logger;
  /** How long the holder may take to acknowledge a relayed retry (default 10 s). */
  readonly ackMs?: number;
  /** How often the holder says a relayed retry is still running; silence for 4 beats is a lost call (default 5 s). */
  readonly heartbeatMs?: number;
}

export interface ParkedCalls {
  /** The bridge hooks that keep the records: give them to `createInputBridge`. */
  readonly hooks: BridgeHooks;
  /** Starts answering relayed retries with `bridge`'s calls. */
  listen(bridge: InputBridge): Promise<void>;
  /**
   * A retry for a call not parked here: relayed to the replica holding it. `undefined`: no such call for this owner
   * (unknown, expired, another owner's). Throws `STATE_UNAVAILABLE` or `MCP_PARKED_CALL_LOST`.
   */
  resumeElsewhere(
    owner: string,
    requestState: string,
    responses: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<BridgeStep | undefined>;
  close(): Promise<void>;
}

interface ParkedRecord {
  readonly replica: string;
  readonly owner: string;
}

type Message =
  | {
      readonly type: 'resume';
      readonly to: string;
      readonly from: string;
      readonly id: string;
      readonly owner: string;
      readonly requestState: string;
      readonly responses: Record<string, unknown>;
    }
  | { readonly type: 'ack' | 'alive' | 'missing'; readonly to: string; readonly id: string }
  | { readonly type: 'step'; readonly to: string; readonly id: string; readonly step: BridgeStep };

interface Waiter {
  readonly onMessage: (message: Message) => void;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
const recordKey = (requestState: string) => `mcp:parked:${sha256(requestState)}`;

export function createParkedCalls(options: ParkedCallsOptions): ParkedCalls {
  const { state, logger } = options;
  const ackMs = options.ackMs ?? 10_000;
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const self = state.replicaId;
  const waiters = new Map<string, Waiter>();
  let unsubscribe: (() => Promise<void>) | undefined;

  const publish = (message: Message) => state.publish(PARKED_CHANNEL, JSON.stringify(message));
  const warn = (what: string) => (error: unknown) =>
    logger.warn(`parked call ${what}: ${errorMessage(error)}`, { cause: error });

  const hooks: BridgeHooks = {
    onPark(requestState, owner, idleMs) {
      const record: ParkedRecord = { replica: self, owner: sha256(owner) };
      // Best effort: without the record a retry still resumes here; elsewhere it gets InvalidParams (call again).
      void state.set(recordKey(requestState), JSON.stringify(record), { ttlMs: idleMs }).catch(warn('not recorded'));
    },
    onRelease(requestState) {
      void state.delete(recordKey(requestState)).catch(warn('record not deleted'));
    },
  };

  /** The holder's side: resume a relayed retry here and answer with its next step. */
  async function serve(bridge: InputBridge, message: Extract<Message, { type: 'resume' }>): Promise<void> {
    const reply = { to: message.from, id: message.id };
    const resumed = bridge.resume(message.owner, message.requestState, message.responses);
    if (!resumed) return publish({ type: 'missing', ...reply });
    await publish({ type: 'ack', ...reply });
    // A lost heartbeat is survivable: the asker waits for the next one, and gives up with MCP_PARKED_CALL_LOST after several.
    const beat = setInterval(() => void publish({ type: 'alive', ...reply }).catch(() => undefined), heartbeatMs);
    beat.unref();
    try {
      await publish({ type: 'step', ...reply, step: await resumed });
    } finally {
      clearInterval(beat);
    }
  }

  return {
    hooks,
    async listen(bridge) {
      unsubscribe = await state.subscribe(PARKED_CHANNEL, (raw) => {
        let message: Message;
        try {
          message = JSON.parse(raw) as Message;
        } catch {
          return;
        }
        if (message?.to !== self) return;
        if (message.type === 'resume') void serve(bridge, message).catch(warn('relay failed'));
        else waiters.get(message.id)?.onMessage(message);
      });
    },

    async resumeElsewhere(owner, requestState, responses, signal) {
      const raw = await state.get(recordKey(requestState));
      const record = raw ? (JSON.parse(raw) as ParkedRecord) : undefined;
      if (!record || record.owner !== sha256(owner) || record.replica === self) return undefined;
      const id = randomUUID();
      return new Promise<BridgeStep | undefined>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const lost = (why: string) =>
          finish(() =>
            reject(
              new ToolSearchError(
                McpServerErrors.MCP_PARKED_CALL_LOST,
                `The replica holding this call (${record.replica}) ${why}; call the tool again`,
                {
                  details: { replica: record.replica },
                },
              ),
            ),
          );
        const arm = (ms: number, why: string) => {
          clearTimeout(timer);
          timer = setTimeout(() => lost(why), ms);
          timer.unref();
        };
        const onAbort = () =>
          finish(() => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')));
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(id);
          signal.removeEventListener('abort', onAbort);
          settle();
        };
        waiters.set(id, {
          onMessage(message) {
            if (message.type === 'missing') return finish(() => resolve(undefined));
            if (message.type === 'step') return finish(() => resolve(message.step));
            arm(heartbeatMs * 4, 'went silent while resuming it');
          },
        });
        signal.addEventListener('abort', onAbort, { once: true });
        arm(ackMs, 'did not answer');
        publish({ type: 'resume', to: record.replica, from: self, id, owner, requestState, responses }).catch(
          (error: unknown) => finish(() => reject(error)),
        );
      });
    },

    async close() {
      await unsubscribe?.().catch(() => undefined); // closing: a store already gone has nothing left to unsubscribe
    },
  };
}

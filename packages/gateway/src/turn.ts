/**
 * One agent turn: build the run and its exposure for the mode that applies to
 * this agent and provider, send the conversation upstream (OpenAI or
 * Anthropic), execute the tool calls that come back through the exposure
 * (direct names, control tools, `tool_search_code`, hidden directory names),
 * append the results, and repeat until the model answers, a client tool must
 * run on the client, or the step limit is hit. The turn's ledger and any
 * exposure change within the session go to the session log as run events.
 */
import type OpenAI from 'openai';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessage,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import {
  errorMessage,
  notLoadedResult,
  ToolArgumentsError,
  type ClientCall,
  type ExposureToolView,
  type JsonSchema,
  type Kernel,
  type Run,
  type RunRequest,
  type ToolCallOutcome,
} from '@tool-search/kernel';
import { providerExposure, toolResultText, type ProviderExposure } from '@tool-search/provider-formats';
import { CONTROL_TOOL_NAMES } from '@tool-search/control-tools';
import { createTokenCounter } from '@tool-search/telemetry';
import { suspendableTurn, type SuspendedTurn, type TurnControl } from './handoff.js';
import { capabilityOf, type CapabilityRule, type DeferralPath } from './capabilities.js';
import {
  appendTools,
  referencedNames,
  searchDeferred,
  searchFunction,
  toolJson,
  type DeferralReport,
  type DeferredTools,
} from './deferred.js';
import { Ledger, type CountTokens, type TurnLedger } from './ledger.js';
import { openaiUpstream } from './openai-upstream.js';
import { prefixCacheOf } from './prefix-cache.js';
import { ProgrammaticTurn, programmaticFor } from './programmatic.js';
import { renderOutcome } from './render.js';
import { SessionExposures } from './session-exposure.js';
import { durableLoads } from './durable-loads.js';
import { gatewayAddressOf } from './served.js';
import type { ServerBlock, Upstream } from './upstream.js';
import type { LoadedTools } from '@tool-search/state';

declare module '@tool-search/kernel' {
  interface RunEventMap {
    /** A conversation message of a gateway turn, for the session transcript (tool calls are logged by telemetry). */
    'turn-message': {
      readonly type: 'turn-message';
      readonly role: string;
      readonly content: string | null;
      readonly toolCalls?: readonly string[];
    };
    /** The whole turn's cost, discovery included, and its direct-mode counterpart. */
    'turn-ledger': {
      readonly type: 'turn-ledger';
      readonly mode: string;
      readonly ledger: TurnLedger;
      readonly deferral?: DeferralReport;
      /** Deferred loading's path this turn (client deferred tools, or native mode): who searched and loaded. */
      readonly path?: DeferralPath;
    };
    /** The tools or system text sent in this session differ from the previous turn's (the provider's prompt cache misses). */
    'exposure-changed': {
      readonly type: 'exposure-changed';
      readonly mode: string;
      readonly from: string;
      readonly to: string;
    };
    /** A model's tool call whose arguments are not JSON: nothing ran, the model was told (`error.cause` is the parse error). */
    'tool-arguments-invalid': {
      readonly type: 'tool-arguments-invalid';
      readonly name: string;
      readonly toolId: string;
      readonly error: ToolArgumentsError;
    };
  }
}

export interface ClientFunctionTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters?: Record<string, unknown>;
  };
}

export interface TurnInput {
  /** The conversation as OpenAI chat messages (the front ends convert theirs). */
  readonly messages: readonly ChatCompletionMessageParam[];
  /** Tools the client declared; a model call to one is handed back to the client as `tool_calls`. */
  readonly clientTools?: readonly ClientFunctionTool[];
  readonly agentId?: string;
  readonly sessionId?: string;
  readonly signal?: AbortSignal;
  readonly maxTokens?: number;
  /** The client's deferred tools and its tool-search server tool (Anthropic `defer_loading`), see deferred.ts. */
  readonly deferred?: DeferredTools;
  /** Called before each provider request (streaming front ends send a keep-alive). */
  readonly onStep?: (step: number) => void;
}

/** Who a run is for; picks the exposure mode and search limits when `toolSearchFor` is set. */
export interface TurnParty {
  readonly agentId?: string;
  readonly provider: string;
  readonly model: string;
}

/** The exposure a run gets: its mode and, when they differ from the mode plugins' own, its search limits. */
export interface TurnToolSearch {
  readonly mode: string;
  readonly searchLimits?: { readonly searchDefaultLimit?: number; readonly maxSearchLimit?: number };
  /** The operator's extension of the search tool's description for this run (`toolSearch.description`). */
  readonly searchDescription?: string;
}

export interface TurnOptions {
  readonly kernel: Kernel;
  /** The provider (see `createUpstream`); or `client` + `model` for an OpenAI-compatible one. */
  readonly upstream?: Upstream;
  readonly client?: OpenAI;
  readonly model?: string;
  /** Exposure mode: direct | tools | directory | code. */
  readonly mode: string;
  /** Picks the mode and search limits per run (per-agent and per-provider `toolSearch`); `mode` when it returns undefined. */
  readonly toolSearchFor?: (party: TurnParty) => TurnToolSearch | undefined;
  /** Provider name for byProvider policy (default: the upstream's kind). */
  readonly provider?: string;
  readonly maxSteps?: number;
  /** Counts ledger tokens (default: `o200k_base`); `false` leaves tokens null. */
  readonly countTokens?: CountTokens | false;
  /** Session fingerprints for prompt-cache stability (default: one per kernel). */
  readonly sessions?: SessionExposures;
  /** How long a turn waits for the results of client calls made inside tool_call or code (default 5 min). */
  readonly clientCallTtlMs?: number;
  /** Capability rules ahead of the defaults (capabilities.ts): which upstreams take deferred tools themselves. */
  readonly capabilities?: readonly CapabilityRule[];
  /** Operator log (one line each): e.g. native mode falling back to tools on an upstream without deferred loading. */
  readonly log?: (line: string) => void;
  /**
   * Whether the run of this agent and session is sandboxed (the config's `sandbox.mode`, a spawning session's sandbox):
   * the run is then marked `sandboxed`, so `tools.sandbox.tools`, the session tools' clamp and `elevated` apply.
   */
  readonly sandboxFor?: (run: SandboxedParty) => boolean | Promise<boolean>;
  /** Where each session's loaded tools are kept (durable-loads.ts): its next turn, on any replica, offers them again. */
  readonly loadedTools?: LoadedTools;
}

/** Who `sandboxFor` decides for. */
export interface SandboxedParty {
  readonly agentId?: string;
  readonly sessionId?: string;
}

export interface TurnToolCall {
  readonly name: string;
  readonly status: ToolCallOutcome['status'];
  readonly toolId: string;
  /** Set when the provider's sandbox made the call (programmatic tool calling in native mode). */
  readonly caller?: 'programmatic';
}

export interface TurnResult {
  readonly message: ChatCompletionMessage;
  readonly finishReason: 'stop' | 'tool_calls' | 'length';
  readonly runId: string;
  readonly sessionId: string;
  readonly mode: string;
  readonly model: string;
  readonly requests: number;
  readonly toolCalls: readonly TurnToolCall[];
  /** Provider-reported tokens, summed over the turn's requests. */
  readonly usage: { readonly input: number; readonly output: number };
  readonly ledger: TurnLedger;
  /** Fingerprint of the tools and system text sent; `exposureChanged` when it differs from the session's last turn. */
  readonly exposure: { readonly fingerprint: string; readonly changed: boolean };
  /** Set when the turn waits for client calls made inside tool_call or code: the server resumes it with their results. */
  readonly suspended?: SuspendedTurn<TurnResult>;
  /** Tool searches of this turn in Anthropic's blocks (run by the provider or served by the gateway), for the client. */
  readonly serverBlocks?: readonly ServerBlock[];
  /** Set when the request had deferred tools: which path served them. */
  readonly deferral?: DeferralReport;
  /** Set when the configured mode could not be used with this upstream (native without deferred loading). */
  readonly fallback?: { readonly from: string; readonly reason: string };
  /** Set when deferred loading was in play: `pass-through`, `served`, or `fallback-tools` (native mode fell back). */
  readonly path?: DeferralPath;
  /** Set when the run was sandboxed (`sandboxFor`): the sandbox policy step, the session clamp and `elevated` applied. */
  readonly sandboxed?: true;
}

const DISCOVERY = new Set<string>([CONTROL_TOOL_NAMES.search, CONTROL_TOOL_NAMES.describe]);
const defaultSessions = new WeakMap<Kernel, SessionExposures>();
let defaultCounter: CountTokens | undefined;

export function resolveUpstream(options: Pick<TurnOptions, 'upstream' | 'client' | 'model'>): Upstream {
  if (options.upstream) return options.upstream;
  if (!options.client || !options.model) throw new TypeError('runTurn needs `upstream`, or `client` and `model`');
  return openaiUpstream(options.client, options.model);
}

/** Modes where client tools are in the searchable catalog (the documents); elsewhere they stay directly visible. */
const CLIENT_TOOLS_IN_CATALOG: ReadonlySet<string> = new Set(['tools', 'code']);

/** One turn; it may first answer with client calls made inside tool_call or code (`suspended`), see handoff.ts. */
export function runTurn(options: TurnOptions, input: TurnInput): Promise<TurnResult> {
  return suspendableTurn<TurnResult>(
    (control) => driveTurn(options, input, control),
    options.clientCallTtlMs ?? 300_000,
  );
}

async function driveTurn(
  options: TurnOptions,
  input: TurnInput,
  control: TurnControl<TurnResult>,
): Promise<TurnResult> {
  const { kernel, maxSteps = 8 } = options;
  const upstream = resolveUpstream(options);
  const provider = options.provider ?? upstream.kind;
  const party = { provider, model: upstream.model, ...(input.agentId ? { agentId: input.agentId } : {}) };
  const setting = options.toolSearchFor?.(party);
  const wanted = setting?.mode ?? options.mode;
  const capability = capabilityOf(upstream.kind, upstream.model, options.capabilities);
  // Native mode needs the upstream to take deferred tools and load them from a custom search tool's tool_reference blocks.
  // Or, on an upstream without deferred loading, to let the provider's sandbox call the tools (programmatic.ts).
  const sandboxCalls = programmaticFor(upstream, capability);
  const nativeLoads = upstream.kind === 'anthropic' && capability.deferLoading && capability.toolReference;
  const fallback =
    wanted === 'native' && !nativeLoads && !sandboxCalls
      ? {
          from: 'native',
          reason: `the ${upstream.kind} upstream model ${upstream.model} has no deferred tool loading; using tools mode`,
        }
      : undefined;
  if (fallback)
    sayOnce(kernel, `${upstream.kind}:${upstream.model}`, () =>
      options.log?.(`gateway: native mode: ${fallback.reason}`),
    );
  const mode = fallback ? 'tools' : wanted;
  const countTokens =
    options.countTokens === false ? undefined : (options.countTokens ?? (defaultCounter ??= tokenCounter()));
  // With deferred tools searched by the client's own custom tool, its tools that are not deferred stay loaded (as on
  // Anthropic's API): the search tool among them must be in view, or the deferred tools are unreachable.
  const customSearch = input.deferred !== undefined && input.deferred.searchTool === undefined;
  const catalogMode =
    CLIENT_TOOLS_IN_CATALOG.has(mode) && !customSearch ? ('catalog' as const) : ('direct-only' as const);
  // The turn's last user message: directory mode ranks the likely-needed tools from it (the same for every request of the turn).
  const lastUserMessage = [...input.messages].reverse().find((message) => message.role === 'user');
  const turnText = lastUserMessage ? (textOf(lastUserMessage.content) ?? '').slice(0, 2000) : '';
  const sandboxed = await options.sandboxFor?.({
    ...(input.agentId ? { agentId: input.agentId } : {}),
    ...(input.sessionId ? { sessionId: input.sessionId } : {}),
  });
  const request = {
    ...party,
    ...(turnText ? { turnText } : {}),
    ...(input.sessionId ? { sessionId: input.sessionId } : {}),
    ...(sandboxed === true ? { sandboxed: true } : {}),
    ...(gatewayAddressOf(kernel) ? { gatewayAddress: gatewayAddressOf(kernel) } : {}),
    ...(setting?.searchLimits ? { searchLimits: setting.searchLimits } : {}),
    ...(setting?.searchDescription !== undefined ? { searchDescription: setting.searchDescription } : {}),
    clientTools: (input.clientTools ?? []).map((tool) => ({ ...tool, catalogMode })),
  } as RunRequest;
  const run = await kernel.createRun(request, { onClientCall: control.take });
  const signal = input.signal;
  let saveLoads: (() => Promise<void>) | undefined;
  try {
    // The model sees provider-safe names; the wrapper routes them back to the exposed names.
    const exposure = providerExposure(await run.exposure(mode));
    // The tools this session loaded in earlier turns (on any replica) are loaded again, where the policy still allows.
    const durable = await durableLoads(options.loadedTools, run.info.sessionId, options.log);
    await durable.restore(exposure);
    const sessions = options.sessions ?? sessionsOf(kernel);
    const native = exposure.mode === 'native' && nativeLoads ? nativeState(run, exposure, durable.names) : undefined;
    const programmatic =
      exposure.mode === 'native' && sandboxCalls ? new ProgrammaticTurn(run, upstream, exposure) : undefined;
    const baseTools = native ? native.tools : upstream.tools(exposure);
    const offered = programmatic ? programmatic.tools(baseTools) : baseTools;
    const sent = sessions.settle(
      run.info.sessionId,
      `${upstream.kind}:${exposure.mode}`,
      JSON.stringify(native ? native.ordered(offered) : offered),
      exposure.system,
    );
    if (sent.changedFrom)
      run.emit({ type: 'exposure-changed', mode: exposure.mode, from: sent.changedFrom, to: sent.fingerprint });
    const direct = exposure.mode === 'direct' ? undefined : providerExposure(await run.exposure('direct'));
    const ledger = await Ledger.start(
      countTokens,
      sent,
      direct ? { toolsJson: JSON.stringify(upstream.tools(direct)), system: direct.system } : undefined,
      {
        cache: prefixCacheOf(kernel),
        key: `${upstream.kind}:${upstream.model}:${run.info.sessionId}`,
        provider: upstream.kind,
      },
    );
    // The prompt-cache breakpoint goes on the session's stable tools: what a turn appends later does not move it.
    const stableTools = upstream.cacheTools ? upstream.cacheTools(sent.toolsJson) : sent.toolsJson;
    const toolsBytes = Buffer.byteLength(sent.toolsJson);
    const systemBytes = Buffer.byteLength(sent.system);
    const toolNames = exposure.tools.map((tool) => exposure.providerName(tool.name));
    const conversation: ChatCompletionMessageParam[] = [...input.messages];
    const deferral = deferredState(durable.deferred(input.deferred), upstream, options.capabilities);
    saveLoads = () =>
      durable.save([
        ...exposure.loaded().map((view) => view.name),
        ...[...(native?.references.values() ?? [])].flat(),
        ...(deferral?.report().loaded ?? []),
      ]);
    const path: DeferralPath | undefined = fallback
      ? 'fallback-tools'
      : deferral
        ? deferral.path
        : native
          ? 'pass-through'
          : undefined;
    const toolCalls: TurnToolCall[] = [];
    const usage = { input: 0, output: 0 };
    await ledger.add(input.messages);
    const lastUser = [...input.messages].reverse().find((message) => message.role === 'user');
    if (lastUser) run.emit({ type: 'turn-message', role: 'user', content: textOf(lastUser.content) });

    const done = (step: number, finishReason: TurnResult['finishReason'], final: ChatCompletionMessage): TurnResult => {
      const calls = final.tool_calls?.map((call) => (call.type === 'function' ? call.function.name : call.type));
      run.emit({
        type: 'turn-message',
        role: 'assistant',
        content: final.content,
        ...(calls?.length ? { toolCalls: calls } : {}),
      });
      const totals = ledger.toJSON();
      const report = deferral?.report();
      run.emit({
        type: 'turn-ledger',
        mode: exposure.mode,
        ledger: totals,
        ...(report ? { deferral: report } : {}),
        ...(path ? { path } : {}),
      });
      return {
        message: final,
        finishReason,
        runId: run.info.runId,
        sessionId: run.info.sessionId,
        mode: exposure.mode,
        model: upstream.model,
        requests: step,
        toolCalls,
        usage,
        ledger: totals,
        exposure: { fingerprint: sent.fingerprint, changed: sent.changedFrom !== undefined },
        ...(deferral?.blocks.length ? { serverBlocks: [...deferral.blocks] } : {}),
        ...(report ? { deferral: report } : {}),
        ...(fallback ? { fallback } : {}),
        ...(path ? { path } : {}),
        ...(sandboxed === true ? { sandboxed: true as const } : {}),
      };
    };

    for (let step = 1; ; step++) {
      // Tools a call loaded (a catalog tool called before it was loaded, issue 44) go last: earlier bytes stay a prefix.
      const toolsJson = appendTools(
        deferral ? deferral.toolsJson(stableTools) : stableTools,
        exposure.loaded().map((view) => toolJson(upstream.kind, functionOf(view))),
      );
      const body = upstream.body({
        system: sent.system,
        messages: conversation,
        toolsJson,
        ...(input.maxTokens ? { maxTokens: input.maxTokens } : {}),
        ...(deferral?.serverTools ? { serverTools: deferral.serverTools } : {}),
        ...(native || deferral?.references
          ? { toolReferences: new Map([...(deferral?.references ?? []), ...(native?.references ?? [])]) }
          : {}),
        ...programmatic?.request(),
      });
      const requestBytes = Buffer.byteLength(body);
      const tools = toolsJson === '[]' ? '' : toolsJson;
      run.emit({
        type: 'provider-request',
        mode: exposure.mode,
        body,
        toolsBytes,
        systemBytes,
        requestBytes,
        toolNames,
        tools,
        system: sent.system,
      });
      const row = ledger.request(body, toolsJson);
      input.onStep?.(step);
      const reply = await upstream.send(body, signal);
      if (reply.usage) {
        usage.input += reply.usage.input;
        usage.output += reply.usage.output;
      }
      // Searches the provider ran itself: into the conversation as a call and its result, and to the client as they came.
      if (deferral && reply.serverBlocks?.length) conversation.push(...deferral.fromProvider(reply.serverBlocks));
      if (reply.toolCalls.length === 0) {
        ledger.settle(row, 0, false, reply.usage);
        return done(step, reply.stopped === 'length' ? 'length' : 'stop', {
          role: 'assistant',
          content: reply.content,
          refusal: null,
        });
      }
      const assistant: ChatCompletionAssistantMessageParam = {
        role: 'assistant',
        content: reply.content,
        tool_calls: reply.toolCalls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      };
      conversation.push(assistant);
      programmatic?.step(reply, assistant);
      const results: ChatCompletionToolMessageParam[] = [];
      const forClient: (typeof assistant.tool_calls & object)[number][] = [];
      for (const [index, call] of reply.toolCalls.entries()) {
        // The tool id is looked up only for the report of arguments that do not parse: a scan of the exposure's tools.
        const args = parseArguments(call.arguments, () => toolIdOf(exposure, call.name, deferral));
        if (args instanceof ToolArgumentsError) {
          // Invalid JSON is never replaced by a stand-in object: nothing runs, the model reads what to fix.
          run.emit({ type: 'tool-arguments-invalid', name: call.name, toolId: args.toolId!, error: args });
          toolCalls.push({ name: call.name, status: 'error', toolId: args.toolId! });
          results.push({
            role: 'tool',
            tool_call_id: call.id,
            content: renderOutcome({ status: 'error', callId: call.id, toolId: args.toolId!, error: args.toJSON() }),
          });
          continue;
        }
        if (deferral?.isSearch(call.name)) {
          results.push({ role: 'tool', tool_call_id: call.id, content: deferral.search(call.id, call.name, args) });
          toolCalls.push({ name: call.name, status: 'ok', toolId: `gateway:deferred:${call.name}` });
          continue;
        }
        const notLoaded = deferral?.loadOnCall(call.name);
        if (notLoaded !== undefined) {
          results.push({ role: 'tool', tool_call_id: call.id, content: notLoaded });
          toolCalls.push({ name: call.name, status: 'error', toolId: `client:client:${call.name}` });
          continue;
        }
        if (deferral?.isDeferredTool(call.name)) {
          // The client's own deferred tool: the client runs it, as any client tool.
          forClient.push(assistant.tool_calls![index]!);
          toolCalls.push({ name: call.name, status: 'pending', toolId: `client:client:${call.name}` });
          continue;
        }
        const refused = programmatic?.refusal(call, toolIdOf(exposure, call.name, deferral));
        if (refused) {
          results.push({ role: 'tool', tool_call_id: call.id, content: renderOutcome(refused) });
          toolCalls.push({ name: call.name, status: 'blocked', toolId: refused.toolId, caller: 'programmatic' });
          continue;
        }
        programmatic?.before(call, toolIdOf(exposure, call.name, deferral));
        const work = exposure.call(call.name, args, signal ? { signal } : {});
        // Client calls made inside this call go to the HTTP caller now; the call's outcome comes once their results do.
        const outcome = await control.outcome(run, work, (handed) =>
          done(step, 'tool_calls', {
            role: 'assistant',
            content: reply.content,
            refusal: null,
            tool_calls: handed.map(toClientToolCall),
          }),
        );
        signal?.throwIfAborted();
        // A tool that answered with an error result (code that failed in tool_search_code) did not succeed: say so.
        toolCalls.push({
          name: call.name,
          status: outcome.status === 'ok' && outcome.result.isError ? 'error' : outcome.status,
          toolId: outcome.toolId,
          ...(call.caller ? { caller: 'programmatic' as const } : {}),
        });
        native?.found(call.id, call.name, outcome);
        if (outcome.status === 'pending') forClient.push(assistant.tool_calls![index]!);
        else results.push({ role: 'tool', tool_call_id: call.id, content: renderOutcome(outcome) });
      }
      conversation.push(...results);
      const discoveryCalls = reply.toolCalls.filter(
        (call) => DISCOVERY.has(call.name) || deferral?.isSearch(call.name) === true,
      ).length;
      const onlyDiscovery = discoveryCalls === reply.toolCalls.length;
      ledger.settle(row, discoveryCalls, onlyDiscovery, reply.usage);
      await ledger.add([assistant, ...results], onlyDiscovery);
      if (forClient.length)
        return done(step, 'tool_calls', {
          role: 'assistant',
          content: reply.content,
          refusal: null,
          tool_calls: forClient,
        });
      if (step >= maxSteps) {
        return done(step, 'length', {
          role: 'assistant',
          content: `Stopped after ${maxSteps} model requests without a final answer.`,
          refusal: null,
        });
      }
    }
  } finally {
    // Before the answer goes out: the session's next turn may come to another replica right after.
    await saveLoads?.();
    await run.close();
  }
}

/**
 * The turn's deferred-tool state: passed through to an upstream that supports
 * it, else served here (deferred.ts). Found tools are appended to the tools
 * in the order they were first loaded, so earlier bytes never move.
 */
function deferredState(
  deferred: DeferredTools | undefined,
  upstream: Upstream,
  capabilities?: readonly CapabilityRule[],
) {
  if (!deferred) return undefined;
  const capability = capabilityOf(upstream.kind, upstream.model, capabilities);
  // A server search tool needs the upstream's tool search; the client's own search tool, its tool_reference loading.
  const loads = deferred.searchTool ? capability.toolSearch : capability.toolReference;
  const passthrough =
    (deferred.origin ?? 'anthropic') === 'anthropic' &&
    upstream.kind === 'anthropic' &&
    capability.deferLoading &&
    loads;
  const byName = new Map(deferred.tools.map((tool) => [tool.function.name, tool]));
  const loaded = deferred.loaded.filter((name) => byName.has(name));
  const blocks: ServerBlock[] = [];
  let searches = 0;
  const load = (content: unknown) => {
    for (const name of referencedNames(content)) if (byName.has(name) && !loaded.includes(name)) loaded.push(name);
  };
  // No server tool: the client searches with its own custom tool, whose results load tools by `tool_reference`.
  const searchTool = deferred.searchTool;
  const passthroughTools = [
    ...deferred.raw.map((tool) => JSON.stringify(tool)),
    ...(searchTool ? [JSON.stringify(searchTool)] : []),
  ];
  const searchJson = searchTool ? [toolJson(upstream.kind, searchFunction({ ...deferred, searchTool }))] : [];
  return {
    blocks,
    serverTools: passthrough && searchTool ? new Set([searchTool.name]) : undefined,
    /** Pass-through: the client's custom search results go upstream as `tool_reference` blocks, as the client sent them. */
    references: passthrough ? deferred.references : undefined,
    toolsJson: (base: string): string =>
      passthrough
        ? appendTools(base, passthroughTools)
        : appendTools(base, [...searchJson, ...loaded.map((name) => toolJson(upstream.kind, byName.get(name)!))]),
    isSearch: (name: string): boolean => !passthrough && name === searchTool?.name,
    isDeferredTool: (name: string): boolean => byName.has(name),
    /** Served: a deferred tool called before a search loaded it answers with its schema (text) and is loaded now. */
    loadOnCall(name: string): string | undefined {
      const tool = byName.get(name);
      if (passthrough || !tool || loaded.includes(name)) return undefined;
      loaded.push(name);
      return toolResultText(notLoadedResult(name, (tool.function.parameters ?? { type: 'object' }) as JsonSchema));
    },
    search(id: string, name: string, input: unknown): string {
      searches++;
      const content = searchDeferred(deferred, input);
      load(content);
      blocks.push(
        { type: 'server_tool_use', id, name, input },
        { type: 'tool_search_tool_result', tool_use_id: id, content },
      );
      return JSON.stringify(content);
    },
    fromProvider(served: readonly ServerBlock[]): ChatCompletionMessageParam[] {
      const out: ChatCompletionMessageParam[] = [];
      for (const block of served) {
        blocks.push(block);
        if (block.type === 'server_tool_use') {
          searches++;
          out.push({
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: block.id,
                type: 'function',
                function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
              },
            ],
          });
        } else {
          load(block.content);
          out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: JSON.stringify(block.content) });
        }
      }
      return out;
    },
    path: (passthrough ? 'pass-through' : 'served') as DeferralPath,
    report: (): DeferralReport => ({ path: passthrough ? 'pass-through' : 'served', searches, loaded: [...loaded] }),
  };
}

/**
 * Native mode on an upstream with deferred loading: catalog tools go with `defer_loading: true` (the control
 * tool and `direct-only` tools, client tools among them, stay loaded), and a `tool_search` result goes back as
 * `tool_reference` blocks naming the hits the exposure can call.
 */
function nativeState(run: Run, exposure: ProviderExposure, loadedBefore: ReadonlySet<string>) {
  const loadedIds = new Set(run.catalog.filter((tool) => tool.catalogMode === 'direct-only').map((tool) => tool.id));
  const catalog = (view: ExposureToolView) => view.kind === 'tool' && view.toolId && !loadedIds.has(view.toolId);
  const before = exposure.tools.map((view) => catalog(view) && loadedBefore.has(exposure.providerName(view.name)));
  const tools = exposure
    .toAnthropic()
    .map((tool, i) => (catalog(exposure.tools[i]!) && !before[i] ? { ...tool, defer_loading: true } : tool));
  const references = new Map<string, string[]>();
  return {
    tools,
    /**
     * A deferred tool is not in the provider's cached prefix; the tools an earlier turn loaded go last (after the
     * exposure's tools and the ones appended to them), so loading one leaves the cached prefix and its breakpoint
     * (cache-breakpoints.ts) in place.
     */
    ordered: (list: readonly unknown[]): unknown[] => [
      ...list.filter((_tool, i) => !before[i]),
      ...list.filter((_tool, i) => before[i] === true),
    ],
    references,
    found(callId: string, name: string, outcome: ToolCallOutcome): void {
      if (name !== CONTROL_TOOL_NAMES.search || outcome.status !== 'ok') return;
      const hits = hitNames(outcome.result?.structuredContent).filter((hit) => exposure.has(hit));
      references.set(callId, [...new Set(hits.map((hit) => exposure.providerName(hit)))]);
    },
  };
}

function hitNames(structured: unknown): string[] {
  const record = structured as { hits?: { name?: unknown }[]; results?: { hits?: { name?: unknown }[] }[] } | undefined;
  const hits = [...(record?.hits ?? []), ...(record?.results ?? []).flatMap((result) => result.hits ?? [])];
  return hits.flatMap((hit) => (typeof hit?.name === 'string' ? [hit.name] : []));
}

const said = new WeakMap<Kernel, Set<string>>();
function sayOnce(kernel: Kernel, key: string, say: () => void): void {
  let keys = said.get(kernel);
  if (!keys) said.set(kernel, (keys = new Set()));
  if (keys.has(key)) return;
  keys.add(key);
  say();
}

function sessionsOf(kernel: Kernel): SessionExposures {
  let sessions = defaultSessions.get(kernel);
  if (!sessions) defaultSessions.set(kernel, (sessions = new SessionExposures()));
  return sessions;
}

function tokenCounter(): CountTokens {
  const counter = createTokenCounter('o200k_base');
  return (text) => counter.count(text);
}

function toClientToolCall(call: ClientCall): ChatCompletionMessageFunctionToolCall {
  return { id: call.callId, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } };
}

/**
 * A tool call's arguments as the model wrote them (empty text is `{}`). Models sometimes send invalid JSON: that is a
 * `TOOL_ARGUMENTS_INVALID` error naming the parse error (kept as `cause`), never a stand-in object a tool could run on.
 */
function parseArguments(text: string, toolId: () => string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch (error) {
    const reason = errorMessage(error);
    return new ToolArgumentsError(
      toolId(),
      [
        {
          path: '/',
          rule: 'json',
          message: `arguments are not valid JSON (${reason}); nothing ran, send them again as one JSON object`,
        },
      ],
      { cause: error },
    );
  }
}

/** The tool a called name stands for, for reports: the exposed tool's id, a control or deferred tool's own id, else the name. */
function toolIdOf(
  exposure: ProviderExposure,
  name: string,
  deferral: { isSearch(name: string): boolean; isDeferredTool(name: string): boolean } | undefined,
): string {
  if (deferral?.isSearch(name)) return `gateway:deferred:${name}`;
  if (deferral?.isDeferredTool(name)) return `client:client:${name}`;
  const view =
    exposure.tools.find((tool) => tool.name === name) ??
    exposure.tools.find((tool) => exposure.providerName(tool.name) === name);
  if (!view) return name;
  return view.toolId ?? `control:${exposure.mode}:${view.name}`;
}

function textOf(content: ChatCompletionMessageParam['content']): string | null {
  if (typeof content === 'string' || content === null || content === undefined) return content ?? null;
  return content.map((part) => ('text' in part ? part.text : `[${part.type}]`)).join('\n');
}

/** An exposed tool as a client function tool, for `toolJson`. */
function functionOf(view: ExposureToolView): ClientFunctionTool {
  return {
    type: 'function',
    function: { name: view.name, description: view.description, parameters: view.inputSchema },
  };
}

export { runTurn, resolveUpstream } from './turn.js';
export type {
  TurnInput,
  TurnOptions,
  TurnResult,
  TurnToolCall,
  TurnParty,
  TurnToolSearch,
  SandboxedParty,
  ClientFunctionTool,
} from './turn.js';
export { startGatewayServer, listen } from './server.js';
export type { GatewayServer, GatewayServerOptions } from './server.js';
export { sendJson } from './http.js';
export { createUpstream } from './provider.js';
export type { ProviderConfig } from './provider.js';
export { openaiUpstream } from './openai-upstream.js';
export { openaiResponsesUpstream, toResponsesInput } from './openai-responses-upstream.js';
export { ANTHROPIC_CODE_EXECUTION, OPENAI_PROGRAMMATIC_TOOL } from './programmatic.js';
export type { ToolCaller } from './programmatic.js';
export {
  anthropicUpstream,
  toAnthropicMessages,
  DEFAULT_MAX_TOKENS,
  type AnthropicUpstreamOptions,
} from './anthropic-upstream.js';
export { CACHE_CONTROL, MAX_BREAKPOINTS } from './cache-breakpoints.js';
export type { Upstream, UpstreamKind, UpstreamReply, UpstreamRequest, UpstreamToolCall } from './upstream.js';
export type { TurnLedger, LedgerRequest, CountTokens, PromptCacheReport } from './ledger.js';
export { PrefixCache, PREFIX_BLOCK, type PrefixCacheLimits } from './prefix-cache.js';
export type { ProviderUsage } from './cache-usage.js';
export { SessionExposures } from './session-exposure.js';
export { renderOutcome, renderResult } from './render.js';
export { sessionTurnRunner } from './session-runner.js';
export type { SessionRunnerOptions, SessionRunnerRequest, SessionRunnerReply } from './session-runner.js';
export {
  CAPABILITIES_SCHEMA,
  DEFAULT_CAPABILITIES,
  capabilitiesFromConfig,
  capabilityOf,
  supportsDeferredTools,
} from './capabilities.js';
export type { Capability, CapabilityRule, DeferralPath } from './capabilities.js';
export { SEARCH_TOOL_TYPES } from './deferred.js';
export type { DeferredTools, DeferralReport } from './deferred.js';
export type { ServerBlock } from './upstream.js';
export { GatewayErrors } from './errors.js';

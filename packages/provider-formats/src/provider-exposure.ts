/**
 * A run's exposure as a model provider sees it: the kernel's provider-neutral
 * exposure plus its tools in the OpenAI and Anthropic formats under
 * provider-safe names, and `call()` / `has()` that also take those names and
 * route them back to the exposed name. The kernel knows no provider: a name
 * that is neither exposed nor a provider form goes to the exposure as it came
 * (a hidden directory name, or an unknown tool the exposure reports).
 */
import type { CallOptions, RunExposure, ToolCallOutcome } from '@tool-search/kernel';
import { createProviderNameMap } from './provider-names.js';
import { toAnthropicTool, toOpenAITool, type AnthropicTool, type OpenAIFunctionTool } from './shapes.js';

export interface ProviderExposure extends RunExposure {
  /** The neutral exposure this one wraps. */
  readonly exposure: RunExposure;
  /** Routes a model's tool call; `name` may be the exposed name or its provider-safe form. */
  call(name: string, args: unknown, options?: Omit<CallOptions, 'origin'>): Promise<ToolCallOutcome>;
  /** Whether `name` (exposed or provider form) is something this exposure can route. */
  has(name: string): boolean;
  toOpenAI(): OpenAIFunctionTool[];
  toAnthropic(): AnthropicTool[];
  /** The provider-safe form of an exposed name (`^[a-zA-Z0-9_-]{1,64}$`); other names come back unchanged. */
  providerName(name: string): string;
}

const wrapped = new WeakMap<RunExposure, ProviderExposure>();

/** Wraps `exposure` (the same wrapper each time for the same exposure; a wrapper comes back as it is). */
export function providerExposure(exposure: RunExposure): ProviderExposure {
  if (isProviderExposure(exposure)) return exposure;
  let out = wrapped.get(exposure);
  if (!out) wrapped.set(exposure, (out = wrap(exposure)));
  return out;
}

function isProviderExposure(exposure: RunExposure): exposure is ProviderExposure {
  return (
    typeof (exposure as Partial<ProviderExposure>).providerName === 'function' &&
    (exposure as Partial<ProviderExposure>).exposure !== undefined
  );
}

function wrap(exposure: RunExposure): ProviderExposure {
  const names = createProviderNameMap(exposure.tools.map((tool) => tool.name));
  const exposed = new Set(exposure.tools.map((tool) => tool.name));
  // An exposed name wins over another tool's provider form; otherwise a provider form routes to its exposed name.
  const route = (name: string): string => (exposed.has(name) ? name : (names.fromProvider(name) ?? name));
  return Object.freeze({
    exposure,
    mode: exposure.mode,
    tools: exposure.tools,
    system: exposure.system,
    call: (name: string, args: unknown, options?: Omit<CallOptions, 'origin'>) =>
      exposure.call(route(name), args, options),
    has: (name: string) => exposure.has(route(name)),
    // Loaded under the name the model called, which the provider accepted: no provider form needed.
    loaded: () => exposure.loaded(),
    toOpenAI: () => exposure.tools.map((tool) => toOpenAITool(tool, names.toProvider(tool.name))),
    toAnthropic: () => exposure.tools.map((tool) => toAnthropicTool(tool, names.toProvider(tool.name))),
    providerName: (name: string) => names.toProvider(name),
    toJSON: () => exposure.toJSON(),
  });
}

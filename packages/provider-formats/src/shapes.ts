/** The tool shapes the OpenAI (Chat Completions `tools`) and Anthropic (Messages `tools`) APIs take. */
import type { ExposureToolView, JsonSchema } from '@tool-search/kernel';

export interface OpenAIFunctionTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: JsonSchema };
}

export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonSchema;
}

/** One exposed tool as an OpenAI function tool, under `name` (its provider-safe form). */
export function toOpenAITool(view: ExposureToolView, name = view.name): OpenAIFunctionTool {
  return { type: 'function', function: { name, description: view.description, parameters: view.inputSchema } };
}

/** One exposed tool as an Anthropic tool, under `name` (its provider-safe form). */
export function toAnthropicTool(view: ExposureToolView, name = view.name): AnthropicTool {
  return { name, description: view.description, input_schema: view.inputSchema };
}

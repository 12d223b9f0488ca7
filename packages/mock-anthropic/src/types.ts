/** The subset of the Anthropic Messages wire format the mock reads and writes. */
export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}
export interface ToolUseBlock {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}
export interface ToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content?: string | readonly { readonly type: string; readonly text?: string }[];
  readonly is_error?: boolean;
}
export type ContentBlock =
  | TextBlock
  | ToolUseBlock
  | ToolResultBlock
  | { readonly type: string; readonly [key: string]: unknown };

export interface AnthropicMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly ContentBlock[];
}

export interface AnthropicTool {
  /** Absent or `custom` for a client tool; a server tool's versioned type otherwise. */
  readonly type?: string;
  readonly name: string;
  readonly defer_loading?: boolean;
  /** Who may call the tool: `direct` (the model), a code-execution version (its sandbox: programmatic tool calling). */
  readonly allowed_callers?: readonly string[];
  readonly description?: string;
  readonly input_schema?: { readonly [key: string]: unknown };
}

export interface MessagesRequest {
  readonly model?: string;
  readonly max_tokens?: number;
  readonly system?: string | readonly TextBlock[];
  readonly messages: readonly AnthropicMessage[];
  readonly tools?: readonly AnthropicTool[];
  readonly stream?: boolean;
  readonly [key: string]: unknown;
}

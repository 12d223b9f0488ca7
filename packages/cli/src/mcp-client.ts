/**
 * The CLI's and gateway's answers to downstream MCP servers: OAuth tokens
 * from the state folder (`mcp login` put them there), sampling through the
 * configured provider (`provider` in the config, OpenAI or Anthropic), elicitation through the
 * approvals prompt (a yes accepts the form with its defaults). What is not
 * configured is not declared, so plugin-mcp declines it with a message.
 */
import { randomUUID } from 'node:crypto';
import type { ToolSearchConfig } from '@tool-search/config';
import type { Approver } from '@tool-search/plugin-approvals';
import type { McpClientHandlers, McpPluginOptions } from '@tool-search/plugin-mcp';
import type { PresetOptions } from '@tool-search/preset';
import type { CliIO } from './io.js';

type ElicitParams = Parameters<NonNullable<McpClientHandlers['elicitInput']>>[0];
type SampleParams = Parameters<NonNullable<McpClientHandlers['createMessage']>>[0];

export async function mcpClientOptions(
  config: ToolSearchConfig,
  io: CliIO,
  approve: Approver | undefined,
): Promise<NonNullable<PresetOptions['mcpClient']>> {
  // Imported only for a config with MCP servers (the caller checks): the SDK is not loaded otherwise.
  const { defaultStateDir, fileTokenStore } = await (await import('@tool-search/preset')).loadMcpClient();
  const env = io.env ?? process.env;
  const handlers: McpClientHandlers = {
    ...(config.provider ? { createMessage: sampler(config.provider, env) } : {}),
    ...(approve ? { elicitInput: elicitor(approve) } : {}),
  };
  return { tokenStore: fileTokenStore(defaultStateDir(env)), handlers } satisfies Pick<
    McpPluginOptions,
    'tokenStore' | 'handlers'
  >;
}

/** `sampling/createMessage` as one step of the configured provider (OpenAI or Anthropic wire format; text messages). */
function sampler(
  provider: NonNullable<ToolSearchConfig['provider']>,
  env: NodeJS.ProcessEnv,
): NonNullable<McpClientHandlers['createMessage']> {
  return async (params, { signal }) => {
    const { createUpstream } = await import('@tool-search/gateway');
    const upstream = createUpstream(provider, env);
    const messages = params.messages.map((message) => ({ role: message.role, content: textOf(message.content) }));
    const body = upstream.body({
      system: params.systemPrompt ?? '',
      messages,
      toolsJson: '[]',
      maxTokens: params.maxTokens,
    });
    const reply = await upstream.send(body, signal);
    return {
      role: 'assistant',
      content: { type: 'text', text: reply.content ?? '' },
      model: upstream.model,
      stopReason: reply.stopped === 'length' ? 'maxTokens' : 'endTurn',
    };
  };
}

function textOf(content: SampleParams['messages'][number]['content']): string {
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part) => {
      if (part.type !== 'text')
        throw new Error(`sampling through the configured provider takes text only, not ${part.type}`);
      return part.text;
    })
    .join('\n');
}

/**
 * `elicitation/create` through the approvals prompt: the question is the
 * server's message and the defaults it offers; yes accepts them (the client
 * fills them in), no declines. A form with a required field that has no
 * default cannot be answered by yes or no, so it is declined unasked.
 */
function elicitor(approve: Approver): NonNullable<McpClientHandlers['elicitInput']> {
  return async (params, { server, signal }) => {
    const form = formOf(params);
    if (!form) return { action: 'decline' };
    const decision = await approve(
      {
        callId: `elicitation-${randomUUID()}`,
        toolId: `mcp:${server}:elicitation/create`,
        name: `elicitation from ${server}`,
        source: 'mcp',
        args: { message: params.message, accept: form.defaults },
        origin: 'direct',
        sessionId: '',
        runId: '',
        reason: `MCP server "${server}" asks: ${params.message}`,
      },
      { signal, expiresAt: new Date(Date.now() + 5 * 60_000).toISOString() },
    );
    return decision === 'allow' ? { action: 'accept', content: {} } : { action: 'decline' };
  };
}

function formOf(params: ElicitParams): { defaults: Record<string, unknown> } | undefined {
  if (params.mode === 'url' || !('requestedSchema' in params)) return undefined;
  const schema = params.requestedSchema;
  const defaults: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties)) {
    if ((property as { default?: unknown }).default !== undefined)
      defaults[key] = (property as { default?: unknown }).default;
  }
  const missing = (schema.required ?? []).some((key) => !(key in defaults));
  return missing ? undefined : { defaults };
}

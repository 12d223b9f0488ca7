import type { ChatMessage, ChatRequest, ChatTool } from '@tool-search/mock-openai';

export const TARGET = 'fake_plugin_tool_0017';
export const ASK = `tool search qa check target=${TARGET}`;

export const fn = (name: string, properties: Record<string, unknown> = {}, required: string[] = []): ChatTool => ({
  type: 'function',
  function: { name, description: `The ${name} tool`, parameters: { type: 'object', properties, required } },
});

export const searchTool = fn('tool_search', { query: { type: 'string' } }, ['query']);
export const callTool = fn('tool_call', { id: { type: 'string' }, args: { type: 'object' } }, ['id']);
export const codeTool = fn('tool_search_code', { code: { type: 'string' } }, ['code']);

export const user = (content: string): ChatMessage => ({ role: 'user', content });
export const system = (content: string): ChatMessage => ({ role: 'system', content });
export const called = (id: string, name: string, args: unknown): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});
export const result = (id: string, content: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content });

export const request = (messages: ChatMessage[], tools: ChatTool[] = []): ChatRequest => ({
  model: 'mock',
  messages,
  tools,
});

export const searchResult = JSON.stringify({
  query: TARGET,
  hits: [
    {
      id: 'plugin:fake:fake_plugin_tool_0018',
      name: 'fake_plugin_tool_0018',
      source: 'plugin',
      owner: 'fake',
      summary: '',
      input: '{}',
    },
    { id: `plugin:fake:${TARGET}`, name: TARGET, source: 'plugin', owner: 'fake', summary: '', input: '{}' },
  ],
  truncated: false,
});

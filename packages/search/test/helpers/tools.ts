import type { JsonSchema, ToolDescriptor } from '@tool-search/kernel';

export function tool(
  name: string,
  description: string,
  inputSchema: JsonSchema = { type: 'object' },
  extra: Partial<ToolDescriptor> = {},
): ToolDescriptor {
  const owner = extra.owner ?? 'files';
  const source = extra.source ?? 'mcp';
  return {
    id: `${source}:${owner}:${name}`,
    name,
    source,
    owner,
    description,
    inputSchema,
    catalogMode: 'catalog',
    ...extra,
  };
}

export const catalog: readonly ToolDescriptor[] = [
  tool('read_file', 'Read the complete contents of a file from the file system.', {
    type: 'object',
    properties: { path: { type: 'string', description: 'Path of the file' }, encoding: { enum: ['utf8', 'base64'] } },
    required: ['path'],
  }),
  tool('write_file', 'Create a new file or overwrite an existing file with new content.', {
    type: 'object',
    properties: { content: { type: 'string' }, path: { type: 'string' } },
    required: ['path', 'content'],
  }),
  tool('list_directory', 'List the files and folders inside a directory.'),
  tool(
    'create_issue',
    'Create a new issue in a GitHub repository.',
    { type: 'object', properties: { title: { type: 'string' }, body: { type: 'string' } }, required: ['title'] },
    { owner: 'github' },
  ),
  tool(
    'search_issues',
    'Search issues and pull requests across GitHub repositories.',
    { type: 'object' },
    { owner: 'github' },
  ),
  tool('send_message', 'Send a message to a Slack channel.', { type: 'object' }, { owner: 'slack' }),
  tool('maps_weather', '查询指定城市的天气预报', { type: 'object' }, { owner: 'amap' }),
  tool('get_message_quota', 'メッセージの送信可能数（今月の残り）を取得します', { type: 'object' }, { owner: 'line' }),
];

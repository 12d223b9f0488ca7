/**
 * Fake core tools named after OpenClaw's built-in inventory, with input
 * schemas shaped after their real parameters and descriptions written in the
 * same spirit, so policy groups, profiles and search see a realistic core.
 */
import type { JsonSchema, ToolAnnotations } from '@tool-search/kernel';

export interface CoreToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly annotations?: ToolAnnotations;
}

const str = (description: string) => ({ type: 'string', description });
const int = (description: string, minimum?: number, maximum?: number) => ({
  type: 'integer',
  description,
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
});
const bool = (description: string) => ({ type: 'boolean', description });
const oneOf = (values: string[], description: string) => ({ type: 'string', enum: values, description });
const object = (properties: Record<string, unknown>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});

const readOnly: ToolAnnotations = { readOnlyHint: true };
const destructive: ToolAnnotations = { destructiveHint: true };

export const CORE_TOOLS: readonly CoreToolSpec[] = [
  {
    name: 'read',
    description:
      'Read a text file from the workspace. Returns numbered lines; use offset and limit to page through large files. Images are returned as attachments.',
    inputSchema: object(
      {
        path: str('Path of the file, relative to the workspace or absolute'),
        offset: int('First line to return (1-based)', 1),
        limit: int('Maximum number of lines to return', 1),
      },
      ['path'],
    ),
    annotations: readOnly,
  },
  {
    name: 'write',
    description: 'Create or overwrite a file with the given content. Parent folders are created as needed.',
    inputSchema: object({ path: str('Path of the file to write'), content: str('Full new content of the file') }, [
      'path',
      'content',
    ]),
    annotations: destructive,
  },
  {
    name: 'edit',
    description:
      'Replace an exact span of text in a file. oldText must match exactly once; include enough surrounding lines to make it unique.',
    inputSchema: object(
      {
        path: str('Path of the file to edit'),
        oldText: str('Exact text to replace'),
        newText: str('Replacement text'),
      },
      ['path', 'oldText', 'newText'],
    ),
    annotations: destructive,
  },
  {
    name: 'apply_patch',
    description:
      'Apply a multi-file patch (add, update, delete, move) in the apply_patch envelope format. Paths are resolved against the workspace.',
    inputSchema: object({ input: str('The full patch, from *** Begin Patch to *** End Patch') }, ['input']),
    annotations: destructive,
  },
  {
    name: 'exec',
    description:
      'Run a shell command in the workspace. Long commands move to the background after yieldMs; poll them with the process tool. Subject to the exec approval policy.',
    inputSchema: object(
      {
        command: str('Shell command to run'),
        workdir: str('Working folder (default: the workspace)'),
        env: { type: 'object', additionalProperties: { type: 'string' }, description: 'Extra environment variables' },
        yieldMs: int('Milliseconds before the command is backgrounded', 0),
        background: bool('Start in the background right away'),
        timeout: int('Kill the command after this many seconds', 1),
        pty: bool('Run in a pseudo-terminal (for interactive CLIs)'),
        elevated: bool('Run on the host with elevated permissions, when allowed'),
      },
      ['command'],
    ),
    annotations: destructive,
  },
  {
    name: 'bash',
    description: 'Legacy alias of exec: run a bash command in the workspace and return its output.',
    inputSchema: object(
      { command: str('Bash command to run'), workdir: str('Working folder'), timeout: int('Timeout in seconds', 1) },
      ['command'],
    ),
    annotations: destructive,
  },
  {
    name: 'process',
    description:
      'Manage background exec sessions: list them, poll for new output, read the log, write to stdin, or kill them.',
    inputSchema: object(
      {
        action: oneOf(['list', 'poll', 'log', 'write', 'kill', 'clear', 'remove'], 'What to do'),
        sessionId: str('Background session id (from exec)'),
        data: str('Text to write to stdin (action write)'),
        offset: int('First log line (action log)', 0),
        limit: int('Number of log lines (action log)', 1),
      },
      ['action'],
    ),
  },
  {
    name: 'web_search',
    description: 'Search the web and return titles, URLs and snippets of the top results.',
    inputSchema: object(
      {
        query: str('Search query'),
        count: int('Number of results (1-10)', 1, 10),
        country: str('Two-letter country code for regional results'),
        search_lang: str('Language of the results, e.g. "en"'),
        freshness: str('Only results from the past day, week, month or year (pd, pw, pm, py)'),
      },
      ['query'],
    ),
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  {
    name: 'web_fetch',
    description: 'Fetch a URL and extract its readable content as markdown or plain text. Does not run JavaScript.',
    inputSchema: object(
      {
        url: str('HTTP or HTTPS URL'),
        extractMode: oneOf(['markdown', 'text'], 'Output format'),
        maxChars: int('Truncate the content to this many characters', 100),
      },
      ['url'],
    ),
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  {
    name: 'browser',
    description:
      'Control the managed browser: open and focus tabs, navigate, take snapshots and screenshots, and act on page elements by reference.',
    inputSchema: object(
      {
        action: oneOf(
          [
            'status',
            'start',
            'stop',
            'tabs',
            'open',
            'focus',
            'close',
            'snapshot',
            'screenshot',
            'navigate',
            'act',
            'console',
            'pdf',
          ],
          'Browser action',
        ),
        targetUrl: str('URL to open or navigate to'),
        targetId: str('Tab id from tabs or open'),
        profile: str('Browser profile name'),
        request: {
          type: 'object',
          description: 'Action details for act: kind (click, type, press, hover, select, fill, wait), ref, text',
          additionalProperties: true,
        },
      },
      ['action'],
    ),
    annotations: { openWorldHint: true },
  },
  {
    name: 'canvas',
    description:
      'Drive the node canvas: present or hide it, navigate to a URL, evaluate JavaScript, take a snapshot, or push A2UI updates.',
    inputSchema: object(
      {
        action: oneOf(['present', 'hide', 'navigate', 'eval', 'snapshot', 'a2ui_push', 'a2ui_reset'], 'Canvas action'),
        node: str('Target node id or name'),
        url: str('URL for navigate or present'),
        javaScript: str('Code for eval'),
      },
      ['action'],
    ),
  },
  {
    name: 'nodes',
    description:
      'Discover paired nodes (phones, desktops) and use them: send notifications, take camera snaps or clips, record the screen, get the location, or run a command.',
    inputSchema: object(
      {
        action: oneOf(
          ['status', 'describe', 'notify', 'camera_snap', 'camera_clip', 'screen_record', 'location_get', 'run'],
          'Node action',
        ),
        node: str('Node id or name'),
        title: str('Notification title'),
        body: str('Notification body'),
        command: { type: 'array', items: { type: 'string' }, description: 'argv for run' },
      },
      ['action'],
    ),
  },
  {
    name: 'image',
    description: 'Analyze an image with the configured image model and answer a question about it.',
    inputSchema: object(
      {
        image: str('Path or URL of the image'),
        prompt: str('What to look for or describe'),
        model: str('Override the image model'),
      },
      ['image'],
    ),
    annotations: readOnly,
  },
  {
    name: 'pdf',
    description:
      'Read a PDF document and answer a question about it; extracts text per page and falls back to page images for scanned files.',
    inputSchema: object(
      {
        pdf: str('Path or URL of the PDF'),
        prompt: str('Question about the document'),
        pages: str('Page range such as "1-5"'),
      },
      ['pdf'],
    ),
    annotations: readOnly,
  },
  {
    name: 'message',
    description:
      'Send and manage messages on connected channels (Slack, Discord, Telegram, WhatsApp, …): send, reply, react, edit, delete, and read recent messages.',
    inputSchema: object(
      {
        action: oneOf(['send', 'reply', 'react', 'read', 'edit', 'delete', 'pin', 'search'], 'Message action'),
        channel: str('Channel provider, e.g. slack or telegram'),
        to: str('Recipient or conversation id'),
        message: str('Message text'),
        media: str('Path or URL of an attachment'),
        replyTo: str('Id of the message to reply to'),
      },
      ['action'],
    ),
    annotations: { openWorldHint: true },
  },
  {
    name: 'cron',
    description:
      'Manage scheduled jobs and wake-ups: list, add, update, remove or run jobs, and read their run history.',
    inputSchema: object(
      {
        action: oneOf(['status', 'list', 'add', 'update', 'remove', 'run', 'runs', 'wake'], 'Cron action'),
        jobId: str('Job id for update, remove, run or runs'),
        job: {
          type: 'object',
          description: 'Job definition for add or update: schedule, payload, session target',
          additionalProperties: true,
        },
        text: str('Text for a wake event'),
      },
      ['action'],
    ),
  },
  {
    name: 'gateway',
    description:
      'Inspect and change the running gateway: read or patch its configuration, read the config schema, restart it, or run an update.',
    inputSchema: object(
      {
        action: oneOf(
          ['restart', 'config.get', 'config.schema', 'config.apply', 'config.patch', 'update.run'],
          'Gateway action',
        ),
        raw: str('JSON5 config text for config.apply or config.patch'),
        reason: str('Why the restart or change is needed'),
        delayMs: int('Delay before a restart', 0),
      },
      ['action'],
    ),
    annotations: destructive,
  },
  {
    name: 'sessions_list',
    description:
      'List sessions visible to this agent with their key, kind, channel, model, token counts and last activity.',
    inputSchema: object({
      kinds: {
        type: 'array',
        items: { type: 'string', enum: ['main', 'group', 'cron', 'hook', 'node'] },
        description: 'Only these session kinds',
      },
      limit: int('Maximum sessions to return', 1),
      activeMinutes: int('Only sessions active in the last N minutes', 1),
      messageLimit: int('Include up to N recent messages per session', 0),
    }),
    annotations: readOnly,
  },
  {
    name: 'sessions_history',
    description: 'Read the transcript of another session. Tool results are left out unless includeTools is true.',
    inputSchema: object(
      {
        sessionKey: str('Session key from sessions_list'),
        limit: int('Maximum messages', 1),
        includeTools: bool('Include tool calls and results'),
      },
      ['sessionKey'],
    ),
    annotations: readOnly,
  },
  {
    name: 'sessions_send',
    description: 'Send a message into another session and optionally wait for its reply.',
    inputSchema: object(
      {
        sessionKey: str('Target session key'),
        message: str('Message to send'),
        timeoutSeconds: int('Seconds to wait for a reply (0 = do not wait)', 0),
      },
      ['sessionKey', 'message'],
    ),
  },
  {
    name: 'sessions_spawn',
    description:
      'Spawn an isolated sub-agent session to work on a task in the background; its result is announced back to this session.',
    inputSchema: object(
      {
        task: str('What the sub-agent should do'),
        label: str('Short label for the run'),
        agentId: str('Agent to spawn (default: this agent)'),
        model: str('Model override for the sub-agent'),
        runTimeoutSeconds: int('Stop the sub-agent after this many seconds', 0),
        cleanup: oneOf(['delete', 'keep'], 'What to do with the session when it ends'),
      },
      ['task'],
    ),
  },
  {
    name: 'session_status',
    description:
      'Show the status card of a session (model, tokens, cost, queue) and optionally set a per-session model override.',
    inputSchema: object({
      sessionKey: str('Session key (default: this session)'),
      model: str('Model override to set, or "default" to clear'),
    }),
    annotations: readOnly,
  },
  {
    name: 'agents_list',
    description: 'List the agent ids this session may target with sessions_spawn.',
    inputSchema: object({}),
    annotations: readOnly,
  },
  {
    name: 'memory_search',
    description:
      'Search the agent memory files (MEMORY.md and memory/*.md) semantically and return matching snippets with path and line numbers.',
    inputSchema: object(
      {
        query: str('What to look for'),
        maxResults: int('Maximum snippets', 1),
        minScore: { type: 'number', minimum: 0, maximum: 1, description: 'Minimum relevance score' },
      },
      ['query'],
    ),
    annotations: readOnly,
  },
  {
    name: 'memory_get',
    description: 'Read lines from a memory file, typically after memory_search pointed at them.',
    inputSchema: object(
      { path: str('Memory file path'), from: int('First line (1-based)', 1), lines: int('Number of lines', 1) },
      ['path'],
    ),
    annotations: readOnly,
  },
];

/**
 * `diffsPlugin`: the optional `diffs` tool of OpenClaw's Tools document, a read-only viewer that turns before/after
 * text or a unified patch into a PNG or PDF (through the system Chromium). A plugin module: configs load it by name,
 * `plugins: { "@tool-search/plugin-diffs": { … } }`. Listed only where a Chromium runs (else a diagnostic says why).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '@tool-search/chromium';
import { ErrorCode, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { diffHtml, invalid, renderFile, toPatches, type DiffInput } from './render.js';

export const DIFFS_PLUGIN_NAME = '@tool-search/plugin-diffs';

export interface DiffsPluginOptions {
  /** The Chromium to print with (default `chromium`… on PATH). */
  readonly executablePath?: string;
  /** Where rendered files go (default `$XDG_STATE_HOME/tool-search/diffs`, else `~/.local/state/tool-search/diffs`). */
  readonly outputDir?: string;
  /** Largest input (before + after, or patch) in bytes, default 2 MB. */
  readonly maxInputBytes?: number;
  /** Diff lines drawn at most (the rest is counted, not drawn), default 3000. */
  readonly maxLines?: number;
  /** Longest render, default 60000 ms. */
  readonly timeoutMs?: number;
  /** The tool's owner: its id is `plugin:<owner>:diffs` (default `diffs`). */
  readonly owner?: string;
}

export const optionsSchema = {
  type: 'object',
  properties: {
    executablePath: { type: 'string', minLength: 1 },
    outputDir: { type: 'string', minLength: 1 },
    maxInputBytes: { type: 'integer', minimum: 1024, maximum: 50_000_000 },
    maxLines: { type: 'integer', minimum: 10, maximum: 100_000 },
    timeoutMs: { type: 'integer', minimum: 1000, maximum: 600_000 },
    owner: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,31}$' },
  },
  additionalProperties: false,
} as const;

export function diffsPlugin(options: DiffsPluginOptions = {}, env: NodeJS.ProcessEnv = process.env): KernelPlugin {
  const found = findChromium(options.executablePath, env, 'plugins["@tool-search/plugin-diffs"].executablePath');
  const owner = options.owner ?? 'diffs';
  const settings = {
    outputDir:
      options.outputDir ?? join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'tool-search', 'diffs'),
    maxInputBytes: options.maxInputBytes ?? 2_000_000,
    maxLines: options.maxLines ?? 3_000,
    timeoutMs: options.timeoutMs ?? 60_000,
  };
  const tools = 'path' in found ? [diffsTool(owner, { ...settings, executablePath: found.path })] : [];
  return {
    name: DIFFS_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => {
        sink.add(tools);
        if ('missing' in found)
          sink.diagnostic({
            code: ErrorCode.TOOL_NOT_CONFIGURED,
            level: 'info',
            message: `diffs is not listed: ${found.missing}`,
            toolId: `plugin:${owner}:diffs`,
          });
      });
    },
  };
}

function diffsTool(
  owner: string,
  settings: { executablePath: string; outputDir: string; maxInputBytes: number; maxLines: number; timeoutMs: number },
): ToolDefinition {
  return {
    name: 'diffs',
    source: 'plugin',
    owner,
    description:
      'Render a read-only diff to a file: give before and after text (with path for the file name) or a unified patch; returns the PNG or PDF path (MEDIA:<path>) to send or show. mode "file" only: no canvas viewer here.',
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: {
      type: 'object',
      properties: {
        before: { type: 'string', description: 'The text before the change.' },
        after: { type: 'string', description: 'The text after the change.' },
        patch: { type: 'string', description: 'A unified diff (git diff output), instead of before/after.' },
        path: { type: 'string', maxLength: 500, description: 'File name shown for before/after.' },
        title: { type: 'string', maxLength: 200 },
        mode: { type: 'string', enum: ['file'], description: 'file: render to PNG or PDF (the only mode here).' },
        fileFormat: { type: 'string', enum: ['png', 'pdf'], description: 'Default png.' },
      },
      additionalProperties: false,
    },
    async execute(args) {
      const input = args as DiffInput & { fileFormat?: 'png' | 'pdf' };
      const size =
        Buffer.byteLength(input.patch ?? '') +
        Buffer.byteLength(input.before ?? '') +
        Buffer.byteLength(input.after ?? '');
      if (size > settings.maxInputBytes) throw invalid(`input is ${size} bytes, more than ${settings.maxInputBytes}`);
      const { html, stats } = diffHtml(toPatches(input), input.title, settings.maxLines);
      const fileFormat = input.fileFormat ?? 'png';
      const filePath = await renderFile(html, fileFormat, settings);
      const details = { mode: 'file', filePath, path: filePath, fileFormat, ...stats };
      return { content: [{ type: 'text', text: `MEDIA:${filePath}` }], structuredContent: details };
    },
  };
}

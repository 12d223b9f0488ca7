/**
 * `diffsPlugin`: the optional `diffs` tool of OpenClaw's Tools document, a read-only viewer that turns before/after
 * text or a unified patch into a viewer page the gateway serves (`mode: "view"`), a PNG or PDF (through the system
 * Chromium, `mode: "file"`), or both. A plugin module: configs load it by name, `plugins: { "@tool-search/plugin-diffs":
 * { … } }`. Listed where one of the two can work: a front end mounted `gatewayPages`, or a Chromium runs (else a
 * diagnostic says why).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '@tool-search/chromium';
import { ErrorCode, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { diffHtml, invalid, renderFile, toPatches, type DiffInput } from './render.js';
import {
  createDiffsViewer,
  DEFAULT_TTL_SECONDS,
  MAX_TTL_SECONDS,
  normalizeBaseUrl,
  type DiffsViewer,
  type GatewayPages,
} from './viewer.js';

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
  /** The origin viewer links are built on (a proxy in front of the gateway), instead of the gateway's own. */
  readonly viewerBaseUrl?: string;
  /** The viewer's page store (default: one of its own, 64 pages / 64 MiB). */
  readonly viewer?: DiffsViewer;
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
    viewerBaseUrl: { type: 'string', pattern: '^https?://', maxLength: 500 },
  },
  additionalProperties: false,
} as const;

/** The plugin, and the viewer pages a front end that serves HTTP mounts (`gatewayPages`, see viewer.ts). */
export interface DiffsPlugin extends KernelPlugin {
  readonly gatewayPages: GatewayPages;
}

interface Settings {
  readonly outputDir: string;
  readonly maxInputBytes: number;
  readonly maxLines: number;
  readonly timeoutMs: number;
  readonly executablePath: string | undefined;
  readonly viewerBaseUrl: string | undefined;
  readonly viewer: DiffsViewer;
}

export function diffsPlugin(options: DiffsPluginOptions = {}, env: NodeJS.ProcessEnv = process.env): DiffsPlugin {
  const found = findChromium(options.executablePath, env, 'plugins["@tool-search/plugin-diffs"].executablePath');
  const owner = options.owner ?? 'diffs';
  const viewer = options.viewer ?? createDiffsViewer();
  const settings: Settings = {
    outputDir:
      options.outputDir ?? join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'tool-search', 'diffs'),
    maxInputBytes: options.maxInputBytes ?? 2_000_000,
    maxLines: options.maxLines ?? 3_000,
    timeoutMs: options.timeoutMs ?? 60_000,
    executablePath: 'path' in found ? found.path : undefined,
    viewerBaseUrl: options.viewerBaseUrl === undefined ? undefined : normalizeBaseUrl(options.viewerBaseUrl),
    viewer,
  };
  return {
    name: DIFFS_PLUGIN_NAME,
    gatewayPages: viewer,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => {
        // Per listing: the viewer is offered once a gateway mounted it, files where a Chromium runs.
        const modes = [...(viewer.mounted ? ['view'] : []), ...(settings.executablePath ? ['file'] : [])] as Mode[];
        if (modes.length > 0) return void sink.add([diffsTool(owner, modes, settings)]);
        sink.diagnostic({
          code: ErrorCode.TOOL_NOT_CONFIGURED,
          level: 'info',
          message: `diffs is not listed: no gateway serves its viewer, and ${'missing' in found ? found.missing : 'no Chromium'}`,
          toolId: `plugin:${owner}:diffs`,
        });
      });
    },
  };
}

type Mode = 'view' | 'file' | 'both';

function diffsTool(owner: string, available: readonly Mode[], settings: Settings): ToolDefinition {
  const modes: Mode[] = available.length === 2 ? ['view', 'file', 'both'] : [...available];
  const fallbackMode: Mode = available.includes('file') ? 'file' : 'view';
  return {
    name: 'diffs',
    source: 'plugin',
    owner,
    description: `Show a read-only diff: give before and after text (with path for the file name) or a unified patch. ${modeText(modes)}`,
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: {
      type: 'object',
      properties: {
        before: { type: 'string', description: 'The text before the change.' },
        after: { type: 'string', description: 'The text after the change.' },
        patch: { type: 'string', description: 'A unified diff (git diff output), instead of before/after.' },
        path: { type: 'string', maxLength: 500, description: 'File name shown for before/after.' },
        title: { type: 'string', maxLength: 200 },
        mode: { type: 'string', enum: modes, description: `Default ${fallbackMode}.` },
        fileFormat: { type: 'string', enum: ['png', 'pdf'], description: 'Default png (file mode).' },
        ...(available.includes('view')
          ? {
              ttlSeconds: {
                type: 'integer',
                minimum: 1,
                maximum: MAX_TTL_SECONDS,
                description: `How long the viewer page lives, default ${DEFAULT_TTL_SECONDS}.`,
              },
              baseUrl: {
                type: 'string',
                maxLength: 500,
                description: "The viewer link's origin (http(s), no query or hash), default the gateway's.",
              },
            }
          : {}),
      },
      additionalProperties: false,
    },
    async execute(args) {
      const input = args as DiffInput & {
        fileFormat?: 'png' | 'pdf';
        mode?: Mode;
        ttlSeconds?: number;
        baseUrl?: string;
      };
      const mode = input.mode ?? fallbackMode;
      if (!modes.includes(mode)) throw invalid(`mode "${mode}" is not available here (${modes.join(', ')})`);
      const size =
        Buffer.byteLength(input.patch ?? '') +
        Buffer.byteLength(input.before ?? '') +
        Buffer.byteLength(input.after ?? '');
      if (size > settings.maxInputBytes) throw invalid(`input is ${size} bytes, more than ${settings.maxInputBytes}`);
      const { html, stats } = diffHtml(toPatches(input), input.title, settings.maxLines);
      const view =
        mode === 'file'
          ? undefined
          : settings.viewer.publish(
              html,
              input.ttlSeconds ?? DEFAULT_TTL_SECONDS,
              input.baseUrl ?? settings.viewerBaseUrl,
            );
      const file = mode === 'view' ? undefined : await renderTo(html, input.fileFormat ?? 'png', settings);
      const content = [
        ...(view ? [{ type: 'text' as const, text: view.viewerUrl }] : []),
        ...(file ? [{ type: 'text' as const, text: `MEDIA:${file.filePath}` }] : []),
      ];
      return {
        content,
        structuredContent: { mode, ...view, ...(file ? { ...file, path: file.filePath } : {}), ...stats },
      };
    },
  };
}

function modeText(modes: readonly Mode[]): string {
  const view = 'mode "view" returns a viewer URL (details.viewerUrl) to open or show';
  const file = 'mode "file" returns the PNG or PDF path (MEDIA:<path>) to send or show';
  if (modes.length === 1) return `${modes[0] === 'view' ? view : file}; the other mode is not available here.`;
  return `${file}; ${view}; "both" returns both.`;
}

async function renderTo(html: string, fileFormat: 'png' | 'pdf', settings: Settings) {
  const executablePath = settings.executablePath!; // file mode is offered only where a Chromium was found
  return { filePath: await renderFile(html, fileFormat, { ...settings, executablePath }), fileFormat };
}

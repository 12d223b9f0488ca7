/**
 * `imagePlugin`: OpenClaw's `image` tool (`core:core:image`): a workspace
 * image (PNG, JPEG, GIF, WebP; the type is read from the bytes, not the file
 * name) sent with a prompt to the configured provider's image-capable model
 * (`agents.defaults.imageModel`) over the provider's own API — Chat Completions
 * (`image_url` data URL) or Anthropic Messages (a base64 `image` block) —
 * which answers with its analysis. Listed only when such a model is configured.
 */
import { readFile, stat } from 'node:fs/promises';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import {
  ErrorCode,
  ToolSearchError,
  type KernelPlugin,
  type ToolDefinition,
  type ToolResult,
} from '@tool-search/kernel';
import { resolveInWorkspace, workspaceRoot, WorkspaceErrors } from '@tool-search/workspace';
import { ImageErrors } from './errors.js';

export const IMAGE_PLUGIN_NAME = '@tool-search/plugin-image';
export const DEFAULT_PROMPT = 'Describe the image.';
export const DEFAULT_MAX_BYTES_MB = 10;

export interface ImagePluginOptions {
  /** The workspace folder (`plugins.core.workspace`). */
  readonly workspace: string;
  /** The image-capable model (`agents.defaults.imageModel`). */
  readonly model: string;
  /** The provider's wire format (`provider.kind`): `openai` (Chat Completions, default) or `anthropic` (Messages). */
  readonly kind?: 'openai' | 'anthropic';
  /** The provider's `baseURL` (default: the vendor's). */
  readonly baseURL?: string;
  readonly apiKey: string;
  /** Largest image sent, in MB (default 10). */
  readonly maxBytesMb?: number;
}

export function imagePlugin(options: ImagePluginOptions): KernelPlugin {
  const root = workspaceRoot(options.workspace);
  const analyze = analyzer(options);
  const maxBytes = Math.round((options.maxBytesMb ?? DEFAULT_MAX_BYTES_MB) * 1024 * 1024);
  const tool: ToolDefinition = {
    name: 'image',
    source: 'core',
    owner: 'core',
    description: `Analyze an image file in the workspace with the image model (${options.model}): describe it, read text in it, or answer a question about it.`,
    annotations: { readOnlyHint: true, openWorldHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        image: { type: 'string', minLength: 1, description: 'Image file (PNG, JPEG, GIF, WebP), relative to the workspace.' },
        prompt: { type: 'string', minLength: 1, description: `What to look for (default "${DEFAULT_PROMPT}").` },
      },
      required: ['image'],
      additionalProperties: false,
    },
    async execute(args, ctx) {
      const { mime, data, path } = await readImage(root, String(args.image), maxBytes);
      const prompt = typeof args.prompt === 'string' ? args.prompt : DEFAULT_PROMPT;
      let text: string;
      try {
        text = await analyze({ mime, data, prompt }, ctx.signal);
      } catch (error) {
        throw new ToolSearchError(ErrorCode.PROVIDER_FAILED, `the image model ${options.model} failed: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
          details: { model: options.model, ...(options.baseURL ? { url: options.baseURL } : {}), status: (error as { status?: number }).status },
        });
      }
      const value = { image: path, mime, bytes: data.length, model: options.model, text };
      return { content: [{ type: 'text', text }], structuredContent: value } satisfies ToolResult;
    },
  };
  return {
    name: IMAGE_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => sink.add([tool]));
    },
  };
}

type Analyze = (image: { mime: string; data: Buffer; prompt: string }, signal: AbortSignal) => Promise<string>;

/** One request to the image model in the provider's own format; the answer's text. */
function analyzer(options: ImagePluginOptions): Analyze {
  const common = { apiKey: options.apiKey, ...(options.baseURL ? { baseURL: options.baseURL } : {}), maxRetries: 0 };
  if (options.kind === 'anthropic') {
    const client = new Anthropic(common);
    return async ({ mime, data, prompt }, signal) => {
      const message = await client.messages.create(
        {
          model: options.model,
          max_tokens: 1024,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'image', source: { type: 'base64', media_type: mime as 'image/png', data: data.toString('base64') } },
                { type: 'text', text: prompt },
              ],
            },
          ],
        },
        { signal },
      );
      return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    };
  }
  const client = new OpenAI(common);
  return async ({ mime, data, prompt }, signal) => {
    const completion = await client.chat.completions.create(
      {
        model: options.model,
        messages: [{ role: 'user', content: [{ type: 'text', text: prompt }, { type: 'image_url', image_url: { url: `data:${mime};base64,${data.toString('base64')}` } }] }],
      },
      { signal },
    );
    return completion.choices[0]?.message.content ?? '';
  };
}

async function readImage(root: string, input: string, maxBytes: number): Promise<{ mime: string; data: Buffer; path: string }> {
  const file = resolveInWorkspace(root, input);
  const info = await stat(file.absolute).catch(() => undefined);
  if (!info?.isFile()) throw new ToolSearchError(WorkspaceErrors.FILE_NOT_FOUND, `No image file at ${input}`, { details: { path: input } });
  if (info.size > maxBytes) {
    throw new ToolSearchError(ImageErrors.IMAGE_UNREADABLE, `${input} is ${info.size} bytes; the image tool sends at most ${maxBytes}`, { details: { rule: 'maxBytesMb', path: input, size: info.size } });
  }
  const data = await readFile(file.absolute);
  const mime = sniff(data);
  if (!mime) throw new ToolSearchError(ImageErrors.IMAGE_UNREADABLE, `${input} is not a PNG, JPEG, GIF or WebP image`, { details: { rule: 'format', path: input } });
  return { mime, data, path: file.relative };
}

/** The image type from its magic bytes. */
function sniff(b: Buffer): string | undefined {
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

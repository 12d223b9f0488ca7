/**
 * `imagePlugin`: OpenClaw's `image` tool (`core:core:image`): a workspace
 * image (PNG, JPEG, GIF, WebP; the type is read from the bytes, not the file
 * name) sent with a prompt to the configured provider's image-capable model
 * (`agents.defaults.imageModel`) over the provider's own API — Chat Completions
 * (`image_url` data URL) or Anthropic Messages (a base64 `image` block) —
 * which answers with its analysis. Listed only when such a model is configured.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import {
  ErrorCode,
  ToolSearchError,
  type KernelPlugin,
  type ToolDefinition,
  type ToolResult,
  errorMessage,
} from '@tool-search/kernel';
import { workspaceRoot } from '@tool-search/workspace';
import { checkPixels } from './dimensions.js';
import { createUrlLoader, isUrl, readWorkspaceImage } from './load.js';

export const IMAGE_PLUGIN_NAME = '@tool-search/plugin-image';
export const DEFAULT_PROMPT = 'Describe the image.';
export const DEFAULT_MAX_BYTES_MB = 10;
/** 8000 × 8000, the largest image Anthropic's API takes; a phone camera's 48 MP fits. */
export const DEFAULT_MAX_PIXELS = 64_000_000;

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
  /** Largest image sent, in MB (default 10); a call's `maxBytesMb` may lower it, never raise it. */
  readonly maxBytesMb?: number;
  /** Image URLs may reach non-public addresses (`tools.web.fetch.allowPrivate`; default false). */
  readonly allowPrivate?: boolean;
  /** Largest image sent, in pixels as its header declares (default 64,000,000): a file of a few KB may declare gigapixels. */
  readonly maxPixels?: number;
}

export function imagePlugin(options: ImagePluginOptions): KernelPlugin {
  const root = workspaceRoot(options.workspace);
  const analyze = analyzer(options);
  const capMb = options.maxBytesMb ?? DEFAULT_MAX_BYTES_MB;
  const urls = createUrlLoader(options.allowPrivate ?? false);
  const tool: ToolDefinition = {
    name: 'image',
    source: 'core',
    owner: 'core',
    description: `Analyze an image (a workspace file or an http(s) URL) with the image model (${options.model}): describe it, read text in it, or answer a question about it.`,
    annotations: { readOnlyHint: true, openWorldHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        image: {
          type: 'string',
          minLength: 1,
          description: 'Image (PNG, JPEG, GIF, WebP): a path relative to the workspace, or an http(s) URL.',
        },
        prompt: { type: 'string', minLength: 1, description: `What to look for (default "${DEFAULT_PROMPT}").` },
        model: {
          type: 'string',
          minLength: 1,
          description: `Image model for this call (default ${options.model}), on the same provider.`,
        },
        maxBytesMb: {
          type: 'number',
          exclusiveMinimum: 0,
          description: `Largest image to accept, in MB (default and most ${capMb}).`,
        },
      },
      required: ['image'],
      additionalProperties: false,
    },
    async execute(args, ctx) {
      const input = String(args.image);
      const maxBytes = Math.round(
        Math.min(typeof args.maxBytesMb === 'number' ? args.maxBytesMb : capMb, capMb) * 1024 * 1024,
      );
      const { mime, data, source, finalUrl } = isUrl(input)
        ? await urls.load(input, maxBytes, ctx.signal)
        : await readWorkspaceImage(root, input, maxBytes);
      const { width, height } = checkPixels(data, mime, source, options.maxPixels ?? DEFAULT_MAX_PIXELS);
      const prompt = typeof args.prompt === 'string' ? args.prompt : DEFAULT_PROMPT;
      const model = typeof args.model === 'string' ? args.model : options.model;
      let text: string;
      try {
        text = await analyze({ mime, data, prompt, model }, ctx.signal);
      } catch (error) {
        throw new ToolSearchError(
          ErrorCode.PROVIDER_FAILED,
          `the image model ${model} failed: ${errorMessage(error)}`,
          {
            cause: error,
            details: {
              model,
              ...(options.baseURL ? { url: options.baseURL } : {}),
              status: (error as { status?: number }).status,
            },
          },
        );
      }
      const value = {
        image: source,
        ...(finalUrl ? { finalUrl } : {}),
        mime,
        bytes: data.length,
        width,
        height,
        model,
        text,
      };
      return { content: [{ type: 'text', text }], structuredContent: value } satisfies ToolResult;
    },
  };
  return {
    name: IMAGE_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => sink.add([tool]));
      hooks.shutdown.tapPromise(() => urls.close());
    },
  };
}

type Analyze = (
  image: { mime: string; data: Buffer; prompt: string; model: string },
  signal: AbortSignal,
) => Promise<string>;

/** One request to the image model in the provider's own format; the answer's text. */
function analyzer(options: ImagePluginOptions): Analyze {
  const common = { apiKey: options.apiKey, ...(options.baseURL ? { baseURL: options.baseURL } : {}), maxRetries: 0 };
  // Each SDK is hundreds of files: the provider's own loads on the first call, not with the plugin.
  if (options.kind === 'anthropic') {
    let client: Promise<Anthropic> | undefined;
    return async ({ mime, data, prompt, model }, signal) => {
      client ??= import('@anthropic-ai/sdk').then(({ default: Client }) => new Client(common));
      const message = await (await client).messages.create(
        {
          model,
          max_tokens: 1024,
          messages: [
            {
              role: 'user',
              content: [
                {
                  type: 'image',
                  source: { type: 'base64', media_type: mime as 'image/png', data: data.toString('base64') },
                },
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
  let client: Promise<OpenAI> | undefined;
  return async ({ mime, data, prompt, model }, signal) => {
    client ??= import('openai').then(({ default: Client }) => new Client(common));
    const completion = await (await client).chat.completions.create(
      {
        model,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: prompt },
              { type: 'image_url', image_url: { url: `data:${mime};base64,${data.toString('base64')}` } },
            ],
          },
        ],
      },
      { signal },
    );
    return completion.choices[0]?.message.content ?? '';
  };
}

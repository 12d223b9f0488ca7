/**
 * `pdfPlugin`: the `pdf` tool (`core:core:pdf`): the text and page count of one or several PDF files in the
 * workspace (pdf.js, see read.ts), and, with a `prompt` and a configured model, that model's answer about them
 * (answer.ts). Without a model, or when the model call fails, the extracted text is the answer.
 */
import {
  ToolSearchError,
  ErrorCode,
  errorMessage,
  type KernelPlugin,
  type ToolDefinition,
  type ToolResult,
} from '@tool-search/kernel';
import { jsonToolResult } from '@tool-search/provider-formats';
import { workspaceRoot } from '@tool-search/workspace';
import { answerer, sendsPdf, type Answer, type PdfModelOptions } from './answer.js';
import { createPdfParser } from './parse.js';
import { readPdfText, type PdfDocument, type PdfText } from './read.js';

export const PDF_PLUGIN_NAME = '@tool-search/plugin-pdf';
/** Documents per call at most (OpenClaw's `pdfs` limit). */
export const MAX_DOCUMENTS = 10;
/** Decoded bytes per document: text PDFs of the default 10 MB decode to far less; a deflate bomb stops here. */
export const DEFAULT_MAX_DECODED_MB = 256;
export const DEFAULT_TIMEOUT_SECONDS = 60;

export interface PdfPluginOptions {
  /** The workspace folder (`plugins.core.workspace`). */
  readonly workspace: string;
  /** Largest file read, in MB (OpenClaw `agents.defaults.pdfMaxBytesMb`). Default 10. */
  readonly maxBytesMb?: number;
  /** Pages read at most per document (OpenClaw `agents.defaults.pdfMaxPages`). Default 20. */
  readonly maxPages?: number;
  /** Characters read at most per call, all documents together. Default 50000. */
  readonly maxChars?: number;
  /** Bytes pdf.js may decode per document (inflated streams, fonts), in MB. Default 256. */
  readonly maxDecodedMb?: number;
  /** How long pdf.js may take per document, in seconds. Default 60. */
  readonly timeoutSeconds?: number;
  /** The model that answers `prompt`; without it the tool returns the text. */
  readonly model?: PdfModelOptions;
}

const PAGES = '^\\s*\\d+(\\s*-\\s*\\d+)?(\\s*,\\s*\\d+(\\s*-\\s*\\d+)?)*\\s*$';

export function pdfPlugin(options: PdfPluginOptions): KernelPlugin {
  const root = workspaceRoot(options.workspace);
  const limits = {
    maxBytes: (options.maxBytesMb ?? 10) * 1024 * 1024,
    maxPages: options.maxPages ?? 20,
    maxChars: options.maxChars ?? 50_000,
    maxDecodedBytes: (options.maxDecodedMb ?? DEFAULT_MAX_DECODED_MB) * 1024 * 1024,
    timeoutMs: (options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
  };
  const answer = options.model ? answerer(options.model) : undefined;
  const parser = createPdfParser();
  const tool: ToolDefinition = {
    name: 'pdf',
    source: 'core',
    owner: 'core',
    description: `Read the text of PDF files in the workspace, page by page, with their page counts${options.model ? `; with a prompt, the model ${options.model.model} answers it about them` : ''}.`,
    annotations: { readOnlyHint: true, ...(options.model ? { openWorldHint: true } : {}) },
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, description: 'PDF file, relative to the workspace.' },
        pdf: { type: 'string', minLength: 1, description: "The same as path (OpenClaw's name)." },
        pdfs: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_DOCUMENTS,
          items: { type: 'string', minLength: 1 },
          description: `Several PDF files (at most ${MAX_DOCUMENTS}), read in order.`,
        },
        pages: {
          type: 'string',
          pattern: PAGES,
          description: `Pages to read in each document, e.g. "1-3,7" (default: the first ${limits.maxPages}).`,
        },
        prompt: {
          type: 'string',
          minLength: 1,
          description: options.model
            ? `A question or instruction the model (${options.model.model}) answers about the documents.`
            : 'Ignored here: no model is configured, so the text is returned.',
        },
        ...(options.model
          ? {
              model: {
                type: 'string',
                minLength: 1,
                description: `Model for this call (default ${options.model.model}), on the same provider.`,
              },
            }
          : {}),
      },
      additionalProperties: false,
    },
    async execute(args, ctx) {
      const paths = [
        ...new Set(
          [args.path, args.pdf, ...((args.pdfs as unknown[] | undefined) ?? [])].filter(
            (p): p is string => typeof p === 'string',
          ),
        ),
      ];
      if (!paths.length)
        throw new ToolSearchError(ErrorCode.TOOL_ARGUMENTS_INVALID, 'pdf needs path (or pdf) or pdfs', {
          details: { rule: 'required' },
        });
      if (paths.length > MAX_DOCUMENTS)
        throw new ToolSearchError(
          ErrorCode.TOOL_ARGUMENTS_INVALID,
          `pdf reads at most ${MAX_DOCUMENTS} documents per call, got ${paths.length}`,
          { details: { rule: 'maxDocuments', count: paths.length } },
        );
      const pages = typeof args.pages === 'string' ? args.pages : undefined;
      const prompt = typeof args.prompt === 'string' ? args.prompt : undefined;
      const model = typeof args.model === 'string' ? args.model : options.model?.model;
      const asked = prompt !== undefined && answer !== undefined && model !== undefined;
      // The PDF of the pages read is cut only for a model that takes PDFs.
      const keepPdf = asked && options.model !== undefined && sendsPdf(options.model);
      const documents: PdfDocument[] = [];
      let chars = 0;
      for (const path of paths) {
        const doc = await readPdfText(
          root,
          path,
          pages,
          { ...limits, maxChars: Math.max(0, limits.maxChars - chars) },
          keepPdf,
          parser,
          ctx.signal,
        );
        chars += doc.pages.reduce((sum, p) => sum + p.text.length, 0);
        documents.push(doc);
      }
      if (!asked)
        return textResult(
          documents,
          prompt !== undefined ? { note: 'no model is configured to answer the prompt: the text is returned' } : {},
        );
      return answered(answer, prompt, documents, model, ctx.signal);
    },
  };
  return {
    name: PDF_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => sink.add(tool));
      hooks.shutdown.tapPromise(() => parser.close());
    },
  };
}

/** One document: the same shape as before (`path`, `pageCount`, `pages`, `truncated`); several: `documents`. */
function textResult(read: readonly PdfText[], extra: Record<string, unknown>): ToolResult {
  const documents = read.map(({ path, pageCount, pages, truncated }) => ({ path, pageCount, pages, truncated }));
  return jsonToolResult(
    documents.length === 1
      ? { ...documents[0]!, ...extra }
      : { documents, truncated: documents.some((d) => d.truncated), ...extra },
  );
}

async function answered(
  answer: Answer,
  prompt: string,
  documents: readonly PdfDocument[],
  model: string,
  signal: AbortSignal,
): Promise<ToolResult> {
  let reply: Awaited<ReturnType<Answer>>;
  try {
    reply = await answer(prompt, documents, model, signal);
  } catch (error) {
    // Text extraction stays the fallback: the caller still gets the documents, and why the model did not answer.
    const status = (error as { status?: number }).status;
    return textResult(documents, {
      model,
      modelError: { message: errorMessage(error), ...(status ? { status } : {}) },
    });
  }
  const read = documents.map(({ path, pageCount, pages, truncated }) => ({
    path,
    pageCount,
    pagesRead: pages.map((p) => p.page),
    truncated,
  }));
  const { text, sentAs, pdfRejected } = reply;
  return {
    content: [{ type: 'text', text }],
    structuredContent: {
      model,
      prompt,
      answer: text,
      sentAs,
      ...(pdfRejected ? { pdfRejected } : {}),
      documents: read,
    },
  };
}

/**
 * `pdfPlugin`: the `pdf` tool (`core:core:pdf`): the text and page count of a
 * PDF file in the workspace, read with pdf.js (Mozilla's PDF engine, in pure
 * JavaScript). pdf.js runs with `isEvalSupported: false`, so a crafted font
 * cannot run code, and files and pages are bounded before parsing.
 */
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  jsonToolResult,
  ToolSearchError,
  type KernelPlugin,
  type ToolDefinition,
  type ToolResult,
} from '@tool-search/kernel';
import { resolveInWorkspace, workspaceRoot, WorkspaceErrors } from '@tool-search/workspace';
import { parsePageRanges } from './pages.js';
import { PdfErrors } from './errors.js';

export const PDF_PLUGIN_NAME = '@tool-search/plugin-pdf';

export interface PdfPluginOptions {
  /** The workspace folder (`plugins.core.workspace`). */
  readonly workspace: string;
  /** Largest file read, in MB (OpenClaw `agents.defaults.pdfMaxBytesMb`). Default 10. */
  readonly maxBytesMb?: number;
  /** Pages read at most per call (OpenClaw `agents.defaults.pdfMaxPages`). Default 20. */
  readonly maxPages?: number;
  /** Characters returned at most. Default 50000. */
  readonly maxChars?: number;
}

const standardFonts = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

export function pdfPlugin(options: PdfPluginOptions): KernelPlugin {
  const root = workspaceRoot(options.workspace);
  const limits = { maxBytes: (options.maxBytesMb ?? 10) * 1024 * 1024, maxPages: options.maxPages ?? 20, maxChars: options.maxChars ?? 50_000 };
  const tool: ToolDefinition = {
    name: 'pdf',
    source: 'core',
    owner: 'core',
    description: 'Read the text of a PDF file in the workspace, page by page, with its page count.',
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, description: 'PDF file, relative to the workspace.' },
        pages: { type: 'string', pattern: '^\\s*\\d+(\\s*-\\s*\\d+)?(\\s*,\\s*\\d+(\\s*-\\s*\\d+)?)*\\s*$', description: `Pages to read, e.g. "1-3,7" (default: the first ${limits.maxPages}).` },
      },
      required: ['path'],
      additionalProperties: false,
    },
    execute: (args) => readPdf(root, String(args.path), typeof args.pages === 'string' ? args.pages : undefined, limits),
  };
  return {
    name: PDF_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.listTools.tap((sink) => sink.add(tool));
    },
  };
}

async function readPdf(root: string, input: string, pages: string | undefined, limits: { maxBytes: number; maxPages: number; maxChars: number }): Promise<ToolResult> {
  const file = resolveInWorkspace(root, input);
  const info = await stat(file.absolute).catch(() => undefined);
  if (!info?.isFile()) throw new ToolSearchError(WorkspaceErrors.FILE_NOT_FOUND, `No PDF file at ${input}`, { details: { path: input } });
  if (info.size > limits.maxBytes) {
    throw new ToolSearchError(PdfErrors.PDF_UNREADABLE, `${input} is ${info.size} bytes; the pdf tool reads at most ${limits.maxBytes}`, { details: { rule: 'maxBytes', path: input, size: info.size } });
  }
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const data = new Uint8Array(await readFile(file.absolute));
  const document = await getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, standardFontDataUrl: standardFonts, verbosity: 0 }).promise.catch((error: unknown) => {
    throw new ToolSearchError(PdfErrors.PDF_UNREADABLE, `${input} is not a readable PDF: ${error instanceof Error ? error.message : String(error)}`, { details: { rule: 'parse', path: input }, cause: error });
  });
  try {
    const requested = parsePageRanges(pages, document.numPages);
    const wanted = requested.slice(0, limits.maxPages);
    const out: { page: number; text: string }[] = [];
    let chars = 0;
    for (const number of wanted) {
      if (chars >= limits.maxChars) break;
      const content = await (await document.getPage(number)).getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join('').replace(/[ \t]+\n/g, '\n').trim();
      out.push({ page: number, text: text.slice(0, limits.maxChars - chars) });
      chars += text.length;
    }
    const value = { path: file.relative, pageCount: document.numPages, pages: out, truncated: chars > limits.maxChars || out.length < requested.length };
    return jsonToolResult(value);
  } finally {
    await document.destroy();
  }
}

/**
 * One PDF's text, page by page, read with pdf.js from a workspace file opened through `@tool-search/workspace`'s
 * fd-relative walk (a folder swapped for a symlink mid-call cannot redirect the read outside). pdf.js runs with
 * `isEvalSupported: false`, so a crafted font cannot run code; the size is checked before parsing.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { openInWorkspace } from '@tool-search/workspace';
import { parsePageRanges } from './pages.js';
import { WorkspaceErrors } from '@tool-search/workspace';
import { PdfErrors } from './errors.js';

export interface PdfText {
  readonly path: string;
  readonly pageCount: number;
  readonly pages: { page: number; text: string }[];
  readonly truncated: boolean;
}

/** A document with, when asked for, the PDF of the pages read (cut by pdf.js when not all were read), for a model that reads PDFs. */
export interface PdfDocument extends PdfText {
  readonly pdf?: Uint8Array;
}

export interface ReadLimits {
  readonly maxBytes: number;
  readonly maxPages: number;
  /** Characters this document may still add. */
  readonly maxChars: number;
}

const standardFonts = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The text of the pages asked for; with `keepPdf`, also the PDF of the pages read. */
export async function readPdfText(
  root: string,
  input: string,
  pages: string | undefined,
  limits: ReadLimits,
  keepPdf = false,
): Promise<PdfDocument> {
  const opened = await openInWorkspace(root, input);
  if (!opened)
    throw new ToolSearchError(WorkspaceErrors.FILE_NOT_FOUND, `No PDF file at ${input}`, { details: { path: input } });
  let data: Uint8Array;
  try {
    const { size } = await opened.handle.stat();
    if (size > limits.maxBytes) {
      throw new ToolSearchError(
        PdfErrors.PDF_UNREADABLE,
        `${input} is ${size} bytes; the pdf tool reads at most ${limits.maxBytes}`,
        { details: { rule: 'maxBytes', path: input, size } },
      );
    }
    data = new Uint8Array(await opened.handle.readFile());
  } finally {
    await opened.handle.close();
  }
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js may take the buffer over (transfer), so the bytes sent on are a copy.
  const whole = keepPdf ? data.slice() : undefined;
  const document = await getDocument({
    data,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: standardFonts,
    verbosity: 0,
  }).promise.catch((error: unknown) => {
    throw new ToolSearchError(PdfErrors.PDF_UNREADABLE, `${input} is not a readable PDF: ${errorMessage(error)}`, {
      details: { rule: 'parse', path: input },
      cause: error,
    });
  });
  try {
    const requested = parsePageRanges(pages, document.numPages);
    const wanted = requested.slice(0, limits.maxPages);
    const out: { page: number; text: string }[] = [];
    let chars = 0;
    for (const number of wanted) {
      if (chars >= limits.maxChars) break;
      const content = await (await document.getPage(number)).getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : ''))
        .join('')
        .replace(/[ \t]+\n/g, '\n')
        .trim();
      out.push({ page: number, text: text.slice(0, limits.maxChars - chars) });
      chars += text.length;
    }
    const text = {
      path: opened.relative,
      pageCount: document.numPages,
      pages: out,
      truncated: chars > limits.maxChars || out.length < requested.length,
    };
    if (!whole) return text;
    // The pages read, written by pdf.js itself (extractPages, 0-based indices); every page: the file as it is.
    const all = out.length === document.numPages;
    const pdf = all
      ? whole
      : await document.extractPages([{ document: null, includePages: out.map((p) => p.page - 1) }]);
    return { ...text, pdf };
  } finally {
    await document.destroy();
  }
}

/**
 * One PDF's text, page by page, read with pdf.js from a workspace file opened through `@tool-search/workspace`'s
 * fd-relative walk (a folder swapped for a symlink mid-call cannot redirect the read outside). The size is checked
 * before parsing; pdf.js runs in a worker bounded in heap, decoded bytes and time (parse.ts), with
 * `isEvalSupported: false`, so a crafted font cannot run code.
 */
import { ToolSearchError } from '@tool-search/kernel';
import { openInWorkspace, readAtMost } from '@tool-search/workspace';
import { choosePages } from './pages.js';
import { WorkspaceErrors } from '@tool-search/workspace';
import { PdfErrors } from './errors.js';
import type { ParseLimits, PdfParser } from './parse.js';

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

export interface ReadLimits extends ParseLimits {
  readonly maxBytes: number;
  readonly maxPages: number;
  /** Characters this document may still add. */
  readonly maxChars: number;
}

/** The text of the pages asked for; with `keepPdf`, also the PDF of the pages read. pdf.js runs in a bounded worker (parse.ts). */
export async function readPdfText(
  root: string,
  input: string,
  pages: string | undefined,
  limits: ReadLimits,
  keepPdf: boolean,
  parser: PdfParser,
  signal: AbortSignal,
): Promise<PdfDocument> {
  const opened = await openInWorkspace(root, input);
  if (!opened)
    throw new ToolSearchError(WorkspaceErrors.FILE_NOT_FOUND, `No PDF file at ${input}`, { details: { path: input } });
  let data: Uint8Array;
  try {
    // A copy of its own (not a slice of Node's pool): the bytes are transferred to the worker.
    data = new Uint8Array(
      await readAtMost(opened.handle, limits.maxBytes, (size) => tooLarge(input, size, limits.maxBytes)),
    );
  } finally {
    await opened.handle.close();
  }
  // The bytes go to the worker (transferred), so the file sent on is a copy.
  const whole = keepPdf ? data.slice() : undefined;
  let requested = 0;
  const parsed = await parser.parse(
    input,
    data,
    (pageCount) => {
      const chosen = choosePages(pages, pageCount, limits.maxPages);
      requested = chosen.total;
      return chosen.pages;
    },
    keepPdf,
    limits,
    signal,
  );
  const text = {
    path: opened.relative,
    pageCount: parsed.pageCount,
    pages: parsed.pages,
    truncated: parsed.chars > limits.maxChars || parsed.pages.length < requested,
  };
  if (!whole) return text;
  // The pages read, written by pdf.js itself (extractPages); every page: the file as it is.
  return { ...text, pdf: parsed.pdf ?? whole };
}

function tooLarge(input: string, size: number, maxBytes: number): ToolSearchError {
  return new ToolSearchError(
    PdfErrors.PDF_UNREADABLE,
    `${input} is ${size} bytes or more; the pdf tool reads at most ${maxBytes}`,
    {
      details: { rule: 'maxBytes', path: input, size },
    },
  );
}

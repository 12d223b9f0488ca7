/**
 * PDF input as the providers document it. Chat Completions takes a `file` content part,
 * `{ type: 'file', file: { filename, file_data: 'data:application/pdf;base64,…' } }` (or a `file_id` from the Files
 * API, which this mock does not have); the Responses API an `input_file` part with the same `filename` / `file_data`.
 * `documentError` says what is malformed (the server answers 400), `describeDocuments` answers a message holding PDFs
 * with what the bytes say: size, page count and the text drawn on each page (read from the content streams, inflated
 * with node:zlib), so a test sees which pages really arrived. No PDF library: enough of the format for test PDFs.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import type { ChatMessage } from './types.js';

/** One PDF in a message: its file name (when given) and bytes. */
export interface PdfPart {
  readonly filename?: string;
  readonly bytes: Buffer;
}

type Part = { readonly type?: unknown; readonly [key: string]: unknown };

/** The reason the first malformed file part of any message is refused, with its JSON path; undefined when all are fine. */
export function documentError(messages: readonly ChatMessage[], at = 'messages'): string | undefined {
  for (const [index, message] of messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [n, part] of (message.content as readonly Part[]).entries()) {
      const path = `${at}[${index}].content[${n}]`;
      if (part.type === 'file') {
        const file = part.file as Part | undefined;
        if (typeof file !== 'object' || file === null)
          return `${path}.file: required (an object with file_data or file_id)`;
        const problem = fileProblem(file, `${path}.file`);
        if (problem) return problem;
      } else if (part.type === 'input_file') {
        const problem = fileProblem(part, path);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/** The PDFs in a message's `file` / `input_file` parts (well-formed ones: check with `documentError` first). */
export function pdfParts(message: ChatMessage | undefined): PdfPart[] {
  if (!message || !Array.isArray(message.content)) return [];
  return (message.content as readonly Part[]).flatMap((part) => {
    const file = (part.type === 'file' ? part.file : part.type === 'input_file' ? part : undefined) as Part | undefined;
    const decoded = typeof file?.file_data === 'string' ? decodeDataUrl(file.file_data) : undefined;
    return decoded
      ? [{ ...(typeof file?.filename === 'string' ? { filename: file.filename } : {}), bytes: decoded.bytes }]
      : [];
  });
}

/** `Mock document: document 1: a.pdf, 1234 bytes, 2 pages: [1] "…" [2] "…". Prompt: <text>`, or undefined without PDFs. */
export function describeDocuments(message: ChatMessage | undefined): string | undefined {
  const pdfs = pdfParts(message);
  if (!pdfs.length) return undefined;
  const parts = Array.isArray(message?.content) ? (message.content as readonly Part[]) : [];
  const prompt = parts
    .flatMap((part) =>
      (part.type === 'text' || part.type === 'input_text') && typeof part.text === 'string' ? [part.text] : [],
    )
    .join(' ');
  const seen = pdfs.map((pdf, index) => {
    const pages = readPdf(pdf.bytes);
    return `document ${index + 1}: ${pdf.filename ?? '(no name)'}, ${pdf.bytes.length} bytes, ${pages.length} pages: ${pages.map((text, page) => `[${page + 1}] ${JSON.stringify(text)}`).join(' ')}`;
  });
  return `Mock document: ${seen.join('; ')}. Prompt: ${prompt || '(none)'}`;
}

/** The text of each page, in page order (the page tree from the catalog: /Root → /Pages → /Kids). */
export function readPdf(bytes: Buffer): string[] {
  const objects = objectsOf(bytes.toString('latin1'));
  const root =
    /\/Root\s+(\d+\s+\d+)\s+R/.exec(bytes.toString('latin1').slice(-4096))?.[1] ??
    [...objects].find(([, body]) => /\/Type\s*\/Catalog/.test(body))?.[0];
  const catalog = root ? (objects.get(root) ?? '') : '';
  const pages: string[] = [];
  const visit = (ref: string | undefined, depth: number): void => {
    const node = ref ? objects.get(ref) : undefined;
    if (!node || depth > 32) return;
    if (/\/Type\s*\/Pages(?![a-zA-Z])/.test(node)) {
      const kids = /\/Kids\s*\[([^\]]*)\]/.exec(node)?.[1] ?? '';
      for (const kid of kids.matchAll(/(\d+)\s+(\d+)\s+R/g)) visit(`${kid[1]} ${kid[2]}`, depth + 1);
    } else if (/\/Type\s*\/Page(?![a-zA-Z])/.test(node)) {
      const contents = /\/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)/.exec(node)?.[1] ?? '';
      const streams = [...contents.matchAll(/(\d+)\s+(\d+)\s+R/g)].map((r) => objects.get(`${r[1]} ${r[2]}`) ?? '');
      pages.push(streams.map(drawnText).join(' ').trim());
    }
  };
  visit(/\/Pages\s+(\d+\s+\d+)\s+R/.exec(catalog)?.[1], 0);
  return pages;
}

/** Every object by "num gen", streams inflated; the objects packed in object streams (PDF 1.5) unpacked. */
function objectsOf(source: string): Map<string, string> {
  const objects = new Map<string, string>();
  for (const match of source.matchAll(/(\d+)\s+(\d+)\s+obj\b([\s\S]*?)\bendobj/g))
    objects.set(`${match[1]} ${match[2]}`, withStream(match[3]!));
  for (const body of [...objects.values()]) {
    if (!/\/Type\s*\/ObjStm/.test(body)) continue;
    const first = Number(/\/First\s+(\d+)/.exec(body)?.[1]);
    const data = body.slice(body.indexOf('stream\n') + 'stream\n'.length);
    const header = data.slice(0, first).trim().split(/\s+/).map(Number);
    for (let i = 0; i + 1 < header.length; i += 2) {
      const from = first + header[i + 1]!;
      const to = i + 3 < header.length ? first + header[i + 3]! : data.length;
      objects.set(`${header[i]} 0`, data.slice(from, to));
    }
  }
  return objects;
}

function withStream(body: string): string {
  const start = /stream\r?\n/.exec(body);
  if (!start) return body;
  const end = body.lastIndexOf('endstream');
  const data = Buffer.from(body.slice(start.index + start[0].length, end < 0 ? undefined : end), 'latin1');
  let inflated = data.toString('latin1');
  if (/\/FlateDecode/.test(body.slice(0, start.index))) {
    try {
      inflated = inflateSync(data).toString('latin1');
    } catch {
      // A truncated or foreign stream: keep the raw bytes.
    }
  }
  return `${body.slice(0, start.index)}stream\n${inflated}`;
}

/** Text shown by `Tj` / `TJ` (literal `( … )` or hex `< … >` strings), one space between shows. */
function drawnText(stream: string): string {
  const shows = [...stream.matchAll(/(\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f\s]*>|\[[^\]]*\])\s*T[jJ]/g)].map(
    (show) => show[1]!,
  );
  return shows
    .map((show) => [...show.matchAll(/\((?:[^()\\]|\\.)*\)|<[0-9A-Fa-f\s]*>/g)].map((s) => stringOf(s[0])).join(''))
    .join(' ');
}

function stringOf(token: string): string {
  if (token.startsWith('<')) return Buffer.from(token.slice(1, -1).replace(/\s/g, ''), 'hex').toString('latin1');
  return token
    .slice(1, -1)
    .replace(/\\([nrtbf()\\])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' })[c] ?? c);
}

function fileProblem(file: Part, path: string): string | undefined {
  if (file.file_id !== undefined) {
    return typeof file.file_id === 'string' && file.file_id
      ? `${path}.file_id: no such file (${file.file_id}); this mock has no Files API, send file_data`
      : `${path}.file_id: must be a non-empty string`;
  }
  if (typeof file.file_data !== 'string') return `${path}: file_data or file_id is required`;
  if (file.filename !== undefined && (typeof file.filename !== 'string' || !file.filename))
    return `${path}.filename: must be a non-empty string`;
  const decoded = decodeDataUrl(file.file_data);
  if (!decoded) return `${path}.file_data: must be a base64 data URL, data:application/pdf;base64,…`;
  if (decoded.mediaType !== 'application/pdf')
    return `${path}.file_data: unsupported media type ${decoded.mediaType}; file inputs take application/pdf`;
  if (decoded.bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
    return `${path}.file_data: the data is not a PDF file (no %PDF- header)`;
  return undefined;
}

function decodeDataUrl(url: string): { mediaType: string; bytes: Buffer } | undefined {
  const match = /^data:([^;,]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(url);
  return match ? { mediaType: match[1]!, bytes: Buffer.from(match[2]!, 'base64') } : undefined;
}

/** A small PDF for tests (no PDF library needed), one page per text (content streams deflated when `compress`), with an xref table. */
export function tinyPdf(texts: readonly string[], compress = false): Buffer {
  const objects: string[] = [];
  const pageIds = texts.map((_, i) => 4 + i * 2);
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${texts.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (const [i, text] of texts.entries()) {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`,
    );
    const content = `BT /F1 14 Tf 50 700 Td (${text.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj ET`;
    const data = compress ? deflateSync(content).toString('latin1') : content;
    objects.push(`<< /Length ${data.length}${compress ? ' /Filter /FlateDecode' : ''} >>\nstream\n${data}\nendstream`);
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

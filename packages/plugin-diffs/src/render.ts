/**
 * A diff as the viewer shows it: before/after text (diffed with jsdiff) or a unified patch (parsed with jsdiff), as
 * escaped HTML with old/new line numbers, then printed to PNG or PDF by a headless Chromium that runs no script and
 * loads nothing from the network.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parsePatch, structuredPatch, type StructuredPatch } from 'diff';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '@tool-search/chromium';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { DiffsErrors } from './errors.js';

export interface DiffInput {
  readonly before?: string;
  readonly after?: string;
  readonly patch?: string;
  readonly path?: string;
  readonly title?: string;
}

export interface DiffStats {
  readonly files: number;
  readonly additions: number;
  readonly deletions: number;
  readonly truncated: boolean;
}

/** The files and hunks of the input; a patch that holds no hunk is refused (it is not a unified diff). */
export function toPatches(input: DiffInput): StructuredPatch[] {
  if (typeof input.patch === 'string') {
    if (input.before !== undefined || input.after !== undefined)
      throw invalid('give either before and after, or patch, not both');
    let patches: StructuredPatch[];
    try {
      patches = parsePatch(input.patch);
    } catch (error) {
      throw invalid(`patch is not a unified diff: ${errorMessage(error)}`, error);
    }
    if (!patches.some((patch) => patch.hunks.length > 0))
      throw invalid('patch holds no hunk (@@ … @@): it is not a unified diff');
    return patches;
  }
  if (typeof input.before !== 'string' || typeof input.after !== 'string')
    throw invalid('give before and after (text), or patch (a unified diff)');
  const name = input.path ?? 'text';
  return [structuredPatch(name, name, input.before, input.after, '', '', { context: 3 })];
}

/** The page Chromium prints: every piece of input text is escaped; no script, no external resource. */
export function diffHtml(
  patches: readonly StructuredPatch[],
  title: string | undefined,
  maxLines: number,
): { html: string; stats: DiffStats } {
  let additions = 0;
  let deletions = 0;
  let shown = 0;
  let truncated = false;
  const files: string[] = [];
  for (const patch of patches) {
    const rows: string[] = [];
    for (const hunk of patch.hunks) {
      rows.push(
        `<tr class="hunk"><td></td><td></td><td>@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@</td></tr>`,
      );
      let oldLine = hunk.oldStart;
      let newLine = hunk.newStart;
      for (const line of hunk.lines) {
        const mark = line[0];
        if (mark === '\\') continue; // "\ No newline at end of file"
        if (mark === '+') additions++;
        if (mark === '-') deletions++;
        if (shown >= maxLines) {
          truncated = true;
          continue;
        }
        shown++;
        const cls = mark === '+' ? 'add' : mark === '-' ? 'del' : 'ctx';
        const left = mark === '+' ? '' : String(oldLine++);
        const right = mark === '-' ? '' : String(newLine++);
        rows.push(
          `<tr class="${cls}"><td class="n">${left}</td><td class="n">${right}</td><td><span class="m">${escape(mark ?? ' ')}</span>${escape(line.slice(1))}</td></tr>`,
        );
      }
    }
    const name =
      patch.oldFileName === patch.newFileName || !patch.oldFileName
        ? patch.newFileName
        : `${patch.oldFileName} → ${patch.newFileName}`;
    files.push(`<section><h2>${escape(stripPrefix(name ?? ''))}</h2><table>${rows.join('')}</table></section>`);
  }
  const note = truncated ? `<p class="note">Cut at ${maxLines} lines.</p>` : '';
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>${escape(title ?? 'diff')}</title><style>${PAGE_CSS}</style></head><body>${title ? `<h1>${escape(title)}</h1>` : ''}<p class="stats">${patches.length} file(s), +${additions} −${deletions}</p>${files.join('')}${note}</body></html>`;
  return { html, stats: { files: patches.length, additions, deletions, truncated } };
}

/** Prints the page to `<outputDir>/diffs-….png|pdf` with a fresh headless Chromium, closed whatever happens. */
export async function renderFile(
  html: string,
  format: 'png' | 'pdf',
  settings: { executablePath: string; outputDir: string; timeoutMs: number },
): Promise<string> {
  mkdirSync(settings.outputDir, { recursive: true });
  const path = join(
    settings.outputDir,
    `diffs-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.${format}`,
  );
  const browser = await chromium
    .launch({
      executablePath: settings.executablePath,
      headless: true,
      args: [...CHROMIUM_FLAGS],
      timeout: settings.timeoutMs,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    })
    .catch((error: unknown) => {
      throw new ToolSearchError(
        DiffsErrors.DIFFS_RENDER_FAILED,
        `Chromium (${settings.executablePath}) did not start: ${message(error)}`,
        { cause: error },
      );
    });
  try {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      offline: true,
      viewport: { width: 1000, height: 600 },
    });
    await context.route('**/*', (route) => route.abort());
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load', timeout: settings.timeoutMs });
    if (format === 'png') await page.screenshot({ path, fullPage: true, type: 'png', timeout: settings.timeoutMs });
    else
      await page.pdf({
        path,
        printBackground: true,
        format: 'A4',
        margin: { top: '12mm', bottom: '12mm', left: '10mm', right: '10mm' },
      });
    return path;
  } catch (error) {
    throw new ToolSearchError(
      DiffsErrors.DIFFS_RENDER_FAILED,
      `Chromium could not render the diff: ${message(error)}`,
      { cause: error },
    );
  } finally {
    await browser.close().catch(() => undefined); // cleanup: the render already succeeded or threw its own error
  }
}

export function invalid(text: string, cause?: unknown): ToolSearchError {
  return new ToolSearchError(DiffsErrors.DIFFS_INPUT_INVALID, `diffs: ${text}`, cause === undefined ? {} : { cause });
}

function stripPrefix(name: string): string {
  return name.replace(/^[ab]\//, '');
}

function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function message(error: unknown): string {
  return errorMessage(error).split('\n')[0]!.slice(0, 300);
}

/** The page's one style sheet (the viewer's CSP allows exactly this text, by hash). */
export const PAGE_CSS = `body{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:16px;color:#1f2328;background:#fff}
h1{font:600 18px system-ui,sans-serif;margin:0 0 4px}h2{font:600 14px system-ui,sans-serif;margin:16px 0 4px;padding:6px 8px;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px 6px 0 0}
.stats,.note{font:12px system-ui,sans-serif;color:#59636e;margin:0 0 8px}table{border-collapse:collapse;width:100%;border:1px solid #d0d7de;border-top:0}
td{padding:0 8px;white-space:pre-wrap;word-break:break-all;vertical-align:top}td.n{width:1%;min-width:32px;text-align:right;color:#59636e;user-select:none}
tr.add{background:#dafbe1}tr.del{background:#ffebe9}tr.hunk td{background:#ddf4ff;color:#59636e}.m{display:inline-block;width:1.2em;color:#59636e}`;

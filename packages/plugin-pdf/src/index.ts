// The public surface of @tool-search/plugin-pdf: named exports only.
export { pdfPlugin, PDF_PLUGIN_NAME, MAX_DOCUMENTS } from './plugin.js';
export type { PdfPluginOptions } from './plugin.js';
export type { Answered, PdfInput, PdfModelOptions } from './answer.js';
export { sendsPdf } from './answer.js';
export { parsePageRanges } from './pages.js';
export { PdfErrors } from './errors.js';

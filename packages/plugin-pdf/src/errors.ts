/** The error codes `@tool-search/plugin-pdf` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const PdfErrors = defineErrors('@tool-search/plugin-pdf', {
  PDF_UNREADABLE: '`pdf`: the file is not a readable PDF, or is larger than the limit; `details.rule` says which.',
  PDF_TOO_LARGE_DECODED:
    '`pdf`: the file decodes to more than the plugin lets pdf.js use (`details.rule`: `maxDecodedMb`, the decoded bytes, raised with the `maxDecodedMb` option; or `heap`, the parser heap).',
  PDF_TIMEOUT: '`pdf`: pdf.js did not finish the file within the deadline (the `timeoutSeconds` option).',
});

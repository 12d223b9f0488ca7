/** The error codes `@tool-search/plugin-pdf` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const PdfErrors = defineErrors('@tool-search/plugin-pdf', {
  PDF_UNREADABLE: '`pdf`: the file is not a readable PDF, or is larger than the limit; `details.rule` says which.',
});

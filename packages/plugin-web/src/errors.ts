/** Codes @tool-search/plugin-web raises beyond the kernel's own (URL_NOT_ALLOWED, FETCH_FAILED, SEARCH_PROVIDER_FAILED). */
import { defineErrors } from '@tool-search/kernel';

export const WebErrors = defineErrors('@tool-search/plugin-web', {
  WEB_EXTRACT_FAILED:
    'The fetched page could not be turned into text: `details.rule` is `timeout` (the fetch deadline passed before any text was extracted), `error` (the parser threw) or `worker` (the extraction worker stopped).',
});

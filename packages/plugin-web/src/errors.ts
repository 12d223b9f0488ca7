/** The codes `@tool-search/plugin-web` raises (`URL_NOT_ALLOWED` is `@tool-search/net-guard`'s). */
import { defineErrors } from '@tool-search/kernel/errors';

export const WebErrors = defineErrors('@tool-search/plugin-web', {
  WEB_EXTRACT_FAILED:
    'The fetched page could not be turned into text: `details.rule` is `timeout` (the fetch deadline passed before any text was extracted), `error` (the parser threw) or `worker` (the extraction worker stopped).',
  SEARCH_PROVIDER_FAILED:
    '`web_search`: the search provider failed or answered in a shape it does not document; `details` has the provider and status.',
});

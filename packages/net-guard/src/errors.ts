/** The error codes `@tool-search/net-guard` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const NetGuardErrors = defineErrors('@tool-search/net-guard', {
  FETCH_FAILED:
    'A guarded fetch (`web_fetch`, an image URL) failed: network error, timeout, HTTP error status, too many redirects; `details` has the URL and status.',
  URL_NOT_ALLOWED:
    '`web_fetch`: the URL may not be fetched (not http(s), or it resolves to a private, loopback or link-local address); `details.rule` says which.',
});

/** The error codes `@tool-search/net-guard` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel';

export const NetGuardErrors = defineErrors('@tool-search/net-guard', {
  URL_NOT_ALLOWED: '`web_fetch`: the URL may not be fetched (not http(s), or it resolves to a private, loopback or link-local address); `details.rule` says which.',
});

/**
 * Client-supplied text echoed back in an error (a resource URI, a prompt
 * name, a `requestState`): cut to a bound, so a 1 MB value does not come
 * back in the answer (nor twice, in the message and in `data`).
 */

/** The most characters of one client-supplied value an error repeats. */
export const ECHO_MAX_CHARS = 256;

/** `value` as an error may repeat it: up to `ECHO_MAX_CHARS`, a longer one cut and marked with its length. */
export function echoed(value: string): string {
  return value.length <= ECHO_MAX_CHARS
    ? value
    : `${value.slice(0, ECHO_MAX_CHARS)}… (cut: ${value.length} characters)`;
}

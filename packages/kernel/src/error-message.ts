/**
 * The text of a thrown value: an `Error`'s `message`, anything else as `String(value)`. One helper instead of a copy of
 * that ternary in every package (scripts/check-errors.mjs refuses new copies), and safe on hostile values: a thrown
 * object whose `toString` throws or is missing (`Object.create(null)`) still gives a line instead of a second throw.
 * The text is for a log, a user or a model; code that wraps the error keeps the value itself as `cause`
 * (`new ToolSearchError(code, `…: ${errorMessage(error)}`, { cause: error })`).
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}

/**
 * Untrusted text (descriptions, owners, schema names from MCP servers and
 * clients) on its way to the model: the directory in the system prompt and
 * the search hits of every mode share these two functions.
 *
 * `sanitizeUntrustedText` makes prose one bounded line of plain text: no
 * control, format or invisible characters (bidi overrides, zero-width,
 * Unicode tag "smuggling" characters), no line breaks, no markup that could
 * open a new section (tags, chat-template tokens, code fences, headings,
 * rules), role prefixes defused.
 *
 * `stripUntrustedTokens` is the part that is safe for code-like text (a
 * TypeScript-style argument signature): invisible characters and
 * chat-template tokens go, `<`, `user:` or `___` stay.
 */
export function sanitizeUntrustedText(text: string, maxChars: number): string {
  if (maxChars <= 0 || typeof text !== 'string') return '';
  const plain = stripUntrustedTokens(text)
    .replace(/<\/?[A-Za-z!?][^<>]{0,200}>/g, ' ')
    .replace(/</g, '‹')
    .replace(/>/g, '›')
    .replace(/`+/g, "'")
    .replace(/!\[/g, '[')
    .replace(/[#*_=~-]{3,}/g, ' ')
    .replace(/(^|\s)#{1,6}(?=\s|$)/g, '$1')
    .replace(/\b(system|assistant|user|developer|human|tool)\s*:/gi, '$1 -')
    .replace(/\s+/g, ' ')
    .trim();
  return bound(plain, maxChars);
}

/** One line without invisible characters or chat-template tokens (`<|im_start|>`, `[INST]`, `<<SYS>>`). */
export function stripUntrustedTokens(text: string): string {
  if (typeof text !== 'string') return '';
  // ASCII (most tool text) is already NFKC and has no format, private or separator character, and its only
  // control characters are C0 and DEL: one plain pass instead of the three Unicode ones, which cost most of a
  // search hit's first rendering. Same result.
  const folded = ASCII.test(text)
    ? text.replace(ASCII_CONTROL, ' ')
    : // NFKC folds look-alikes (fullwidth ＜｜…｜＞) into the forms matched below; the ellipsis that marks a cut is kept.
      text
        .split('…')
        .map((part) => part.normalize('NFKC'))
        .join('…')
        .replace(/[\p{Cf}\p{Co}\p{Cn}\p{Cs}]/gu, '')
        .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ');
  return folded
    .replace(/<\|[^<>|]{0,64}\|>/g, ' ')
    .replace(/<<\/?SYS>>|\[\/?INST\]|\[\/?SYS\]/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, NUL included, is the point
const ASCII = /^[\x00-\x7f]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII's control characters are the point
const ASCII_CONTROL = /[\x00-\x1f\x7f]/g;

/** Cuts at a word boundary when one is near, marking the cut with an ellipsis. */
export function bound(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars === 1) return '…';
  // Never split a surrogate pair.
  const cut = text.slice(0, maxChars - 1).replace(/[\uD800-\uDBFF]$/, '');
  const space = cut.lastIndexOf(' ');
  return `${(space >= maxChars * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Untrusted text (descriptions and owner names from MCP servers and clients)
 * on its way into the system prompt. What may enter is one bounded line of
 * plain text: no control, format or invisible characters (bidi overrides,
 * zero-width, Unicode tag "smuggling" characters), no line breaks, no
 * markup that could open a new section (tags, chat-template tokens, code
 * fences, headings, rules), role prefixes defused. The framing text around the
 * directory also tells the model these lines are data, not instructions; this
 * function makes sure they cannot pretend to be anything else.
 */
export function sanitizeUntrustedText(text: string, maxChars: number): string {
  if (maxChars <= 0 || typeof text !== 'string') return '';
  const plain = text
    .normalize('NFKC')
    .replace(/[\p{Cf}\p{Co}\p{Cn}\p{Cs}]/gu, '')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/<\|[^<>|]{0,64}\|>/g, ' ')
    .replace(/<<\/?SYS>>|\[\/?INST\]|\[\/?SYS\]/gi, ' ')
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

/** Cuts at a word boundary when one is near, marking the cut with an ellipsis. */
export function bound(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars === 1) return '…';
  // Never split a surrogate pair.
  const cut = text.slice(0, maxChars - 1).replace(/[\uD800-\uDBFF]$/, '');
  const space = cut.lastIndexOf(' ');
  return `${(space >= maxChars * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Query understanding: the things a request names by their shape rather than
 * by a word. A path or a file name with an extension is about files, a URL
 * about a web page, a phone number about
 * calling or texting. (An email address shape was measured and dropped: it
 * cost the dev set MRR.) Each shape adds the words a tool description uses for
 * it, at a reduced weight (see `RANKING.entityWeight`; a word the user typed too keeps its typed weight). Shapes, not words
 * fitted to a query set.
 */
const SHAPES: readonly { readonly pattern: RegExp; readonly words: readonly string[] }[] = [
  { pattern: /https?:\/\/\S+|\bwww\.\S+/i, words: ['url', 'web', 'page'] },
  {
    // A path: rooted (`/x`, `~/x`, `./x`), two or more slashes (`a/b/c`), a folder (`src/`), or a file name with an
    // extension. "sunrise/sunset", "octo-org/app" and "release/2.0" are not paths.
    pattern:
      /(?:^|[\s("'])(?:~|\.{1,2})?\/[\w.-]|[\w.-]+\/[\w.-]+\/[\w.-]|[\w-]+\/(?=$|[\s,.;:!?)"'])|\b[\w-]+\.(?:txt|md|json|csv|pdf|png|jpe?g|gif|docx?|xlsx?|pptx?|log|ya?ml|ts|js|py|html?|xml|zip|sh)\b/i,
    words: ['file', 'path'],
  },
  { pattern: /\+\d[\d\s-]{7,}\d/, words: ['phone', 'number'] },
];

/** Words implied by the shapes in `query` (raw text, before tokenizing). */
export function entityWords(query: string): string[] {
  const out: string[] = [];
  for (const shape of SHAPES) if (shape.pattern.test(query)) out.push(...shape.words);
  return out;
}

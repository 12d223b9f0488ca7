/**
 * Lookalike folding: the form a name is compared in when the raw form is not
 * enough. NFKC (fullwidth and compatibility forms), invisible characters
 * removed (zero-width, bidi and other format controls), lower case, then the
 * Unicode confusables mapping (`unhomoglyph`: Cyrillic і → i, е → e, …).
 * Both sides of a comparison are folded the same way, so `mcp:*:write_*`
 * still matches `mcp:evil:wr\u0456te_file`.
 */
import unhomoglyph from 'unhomoglyph';

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}]/gu;
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;

const cache = new Map<string, string>();

/** The folded form of a name or an entry (cached; the cache is bounded). */
export function foldName(value: string): string {
  let folded = cache.get(value);
  if (folded === undefined) {
    folded = unhomoglyph(value.normalize('NFKC').replace(INVISIBLE, '').toLowerCase()).toLowerCase();
    if (cache.size > 20_000) cache.clear();
    cache.set(value, folded);
  }
  return folded;
}

/**
 * A name that only looks like plain ASCII: it has other characters, and
 * folding makes it plain ASCII (`wr\u0456te_file`, `write\u200b_file`,
 * `ｗrite_file`). A name in another script (`搜索`) is not a lookalike.
 */
export function isLookalikeName(name: string): boolean {
  return NOT_PRINTABLE_ASCII.test(name) && !NOT_PRINTABLE_ASCII.test(foldName(name));
}

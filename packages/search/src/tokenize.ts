/**
 * Tokenizer shared by the index and the query side: splits identifiers
 * (`snake_case`, `kebab-case`, `a.b`, `a:b`, `a/b`, camelCase), lowercases,
 * drops stopwords and bare numbers, stems (Porter, cached), and turns CJK and
 * kana runs into character unigrams plus bigrams so non-English text is
 * searchable. ASCII text goes through a char-code scan (it runs over every
 * description at index build); only non-ASCII segments use Unicode regexes.
 */
import { stem } from './stem.js';

const WORD = /[\p{L}\p{N}]+/gu;
const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, NUL included, is the point
const NON_ASCII = /[^\x00-\x7f]/;
const CAMEL = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;
const CAMEL_SPLIT = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;

/** English function words (the NLTK list) plus the filler of requests to an assistant. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing don down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just let me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these ' +
    'they this those through to too under until up very was we were what when where which while who whom why will with would ' +
    'you your yours yourself yourselves s t d ll m re ve y ' +
    'please want need like tell give help thanks us also actually really just still already every everything anything ' +
    'something someone anyone whatever via using use tool tools'
  ).split(' '),
);

/** Raw word pieces, lowercased and identifier-split; no stopword removal, no stemming. */
export function words(text: string): string[] {
  const out: string[] = [];
  eachWord(text, (word) => out.push(word));
  return out;
}

/**
 * `words` without the array: calls `emit` with each raw word, in order. The
 * text is lowercased once and ASCII words are sliced from that copy, so a word
 * costs one substring, not a substring and a lowercased copy (the index build
 * runs this over every description).
 */
export function eachWord(text: string, emit: (word: string) => void): void {
  const lowered = text.toLowerCase();
  // Lowercasing can change the length of a few non-ASCII letters; then offsets into `lowered` would drift.
  const aligned = lowered.length === text.length;
  const pieces: string[] = [];
  scanRanges(
    text,
    (start, end) => emit(aligned ? lowered.slice(start, end) : text.slice(start, end).toLowerCase()),
    (piece) => {
      pieces.length = 0;
      for (const match of piece.matchAll(WORD)) pushPiece(match[0], pieces);
      for (const word of pieces) emit(word);
    },
  );
}

/** The term a raw word indexes as, or `undefined` for stopwords, bare numbers and single latin letters. */
export function termOf(word: string): string | undefined {
  if (word.length === 1 ? word < '\u3040' : STOPWORDS.has(word) || isDigits(word)) return undefined;
  return word.charCodeAt(0) >= 0x3040 ? word : stem(word);
}

/** Index/query terms: words minus stopwords, bare numbers and single latin letters, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    const term = termOf(word);
    if (term !== undefined) out.push(term);
  }
  return out;
}

/**
 * A char-code scanner for the ASCII majority of tool text (regex match objects
 * and substrings cost more than the text). ASCII words are reported as
 * [start, end) ranges, already split at camelCase boundaries (a split word is
 * also reported whole, so "GitHub" meets both "github" and "git hub");
 * segments with non-ASCII letters are handed over whole for the Unicode path.
 */
export function scanRanges(
  text: string,
  ascii: (start: number, end: number) => void,
  unicode: (piece: string) => void,
): void {
  const n = text.length;
  let start = -1;
  let wide = false;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    if (isAlnum(c) || (c > 127 && !isSpaceLike(c))) {
      if (start < 0) start = i;
      if (c > 127) wide = true;
      continue;
    }
    if (start >= 0) {
      if (wide) unicode(text.slice(start, i));
      else camelRanges(text, start, i, ascii);
      start = -1;
      wide = false;
    }
  }
}

/** camelCase / PascalCase / ACRONYMWord boundaries inside an ASCII alphanumeric run. */
function camelRanges(text: string, start: number, end: number, emit: (start: number, end: number) => void): void {
  let from = start;
  for (let i = start + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 65 || c > 90) continue;
    const p = text.charCodeAt(i - 1);
    const prevLower = (p >= 97 && p <= 122) || (p >= 48 && p <= 57);
    const prevUpper = p >= 65 && p <= 90;
    const next = i + 1 < end ? text.charCodeAt(i + 1) : 0;
    if (prevLower || (prevUpper && next >= 97 && next <= 122)) {
      emit(from, i);
      from = i;
    }
  }
  emit(from, end);
  if (from !== start) emit(start, end);
}

function isAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/** Non-ASCII separators: general punctuation, CJK punctuation, full-width forms' punctuation. */
function isSpaceLike(c: number): boolean {
  return (
    c === 0xa0 ||
    (c >= 0x2000 && c <= 0x206f) ||
    (c >= 0x3000 && c <= 0x303f) ||
    (c >= 0xff00 && c <= 0xff0f) ||
    (c >= 0xff1a && c <= 0xff20) ||
    c === 0xfeff
  );
}

function pushPiece(piece: string, out: string[]): void {
  if (NON_ASCII.test(piece) && CJK_CHAR.test(piece)) return pushCjk(piece, out);
  if (!NON_ASCII.test(piece))
    return camelRanges(piece, 0, piece.length, (from, to) => out.push(piece.slice(from, to).toLowerCase()));
  if (CAMEL.test(piece)) {
    for (const part of piece.split(CAMEL_SPLIT)) out.push(part.toLowerCase());
    return;
  }
  out.push(piece.toLowerCase());
}

/** CJK/kana runs become unigrams and bigrams; other letters in the piece stay words. */
function pushCjk(piece: string, out: string[]): void {
  let latin = '';
  let run: string[] = [];
  const flush = (): void => {
    if (latin) pushPiece(latin, out);
    latin = '';
    for (let i = 0; i < run.length; i++) {
      out.push(run[i]!);
      if (i + 1 < run.length) out.push(run[i]! + run[i + 1]!);
    }
    run = [];
  };
  for (const char of piece) {
    if (CJK_CHAR.test(char)) {
      if (latin) {
        pushPiece(latin, out);
        latin = '';
      }
      run.push(char);
    } else {
      if (run.length) flush();
      latin += char;
    }
  }
  flush();
}

function isDigits(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

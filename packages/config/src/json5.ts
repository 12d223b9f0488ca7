/**
 * JSON5 parsing for config files, with the parser (six modules) required on the first file read: a command that
 * finds no config file (`tool-search --help`, the demo catalog) does not load it.
 */
import { createRequire } from 'node:module';
import type JSON5 from 'json5';

const require = createRequire(import.meta.url);
let parser: typeof JSON5 | undefined;

/** `JSON5.parse`: throws its `SyntaxError` (with `lineNumber` and `columnNumber`) on malformed text. */
export function parseJson5(text: string): unknown {
  parser ??= require('json5') as typeof JSON5;
  return parser.parse(text);
}

// The shell blocks of every README: a fenced block whose info string is `sh runnable` runs as a test
// (e2e/test/readme-blocks.test.ts) in a scratch folder; `sh no-run` opts a block out on purpose (say why in the text);
// a plain `sh` block may only install packages. So no README shows a command that was never run.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { workspaceDirs } from './check-packages.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const FENCE = /^```(sh|bash|shell)([^\n]*)\n([\s\S]*?)^```$/gm;

/** Every README of the repo (root and workspaces), relative to the root. */
export function readmes(root = ROOT) {
  return ['README.md', ...workspaceDirs(root).map((dir) => join(dir, 'README.md'))].filter((file) =>
    existsSync(join(root, file)),
  );
}

/** `{ file, line, tags, needs, code }` for every shell block. `needs`: commands the block runs that may be missing. */
export function shellBlocks(root = ROOT) {
  return readmes(root).flatMap((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    return [...text.matchAll(FENCE)].map((match) => {
      const words = match[2].trim().split(/\s+/).filter(Boolean);
      const needs = words.filter((w) => w.startsWith('needs=')).flatMap((w) => w.slice(6).split(','));
      return {
        file,
        line: text.slice(0, match.index).split('\n').length,
        tags: words.filter((w) => !w.startsWith('needs=')),
        needs,
        code: match[3],
      };
    });
  });
}

/** A plain block that only installs packages (`npm install …`, comments): nothing to run here. */
export function installOnly(code) {
  return code
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean)
    .every((line) => /^npm (install|i) /.test(line));
}

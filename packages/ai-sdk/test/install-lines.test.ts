/**
 * Issue 41: `npm install @tool-search/ai-sdk ai` installed `ai` 6 on Node 20 (npm picks the newest release whose
 * `engines` fits when no range is given) and the adapter failed at import. Each framework adapter's README install
 * line gives every framework package a range that holds the version its tests ran with and stays inside its peer range.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Version = [number, number, number];
const ADAPTERS = ['ai-sdk', 'openai-agents', 'langchain'];

/** The first version a range names (its lower bound in every range used here: `^1.2.13`, `>=0.20.0 <1`). */
const parse = (text: string): Version => {
  const [major = 0, minor = 0, patch = 0] = (/\d+(\.\d+){0,2}/.exec(text)?.[0] ?? '').split('.').map(Number);
  return [major, minor, patch];
};
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** `^X.Y`: at least X.Y.0, below the next major (the next minor for 0.x), as npm reads a caret. */
function satisfiesCaret(range: string, version: Version): boolean {
  const low = parse(range);
  const high: Version = low[0] > 0 ? [low[0] + 1, 0, 0] : [0, low[1] + 1, 0];
  return compare(version, low) >= 0 && compare(version, high) < 0;
}

function installLine(readme: string): Map<string, string | undefined> {
  const line = /^## Install\n`npm install ([^`]+)`/m.exec(readme)?.[1] ?? '';
  return new Map(
    line
      .split(/\s+/)
      .slice(1)
      .map((spec) => {
        const at = spec.indexOf('@', 1);
        return at < 0 ? [spec, undefined] : [spec.slice(0, at), spec.slice(at + 1)];
      }),
  );
}

describe('framework adapters: the README install line installs what works', () => {
  for (const adapter of ADAPTERS) {
    it(adapter, () => {
      const dir = new URL(`../../${adapter}/`, import.meta.url);
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8'));
      const named = installLine(readFileSync(new URL('README.md', dir), 'utf8'));
      const peers = Object.keys(pkg.peerDependencies).filter((name) => !name.startsWith('@tool-search/'));
      expect([...named.keys()]).toEqual(expect.arrayContaining(peers));
      for (const [name, range] of named) {
        expect(range, `${name} needs a range`).toMatch(/^\^\d+(\.\d+){0,2}$/);
        const tested = pkg.devDependencies[name];
        expect(tested, `${name}: the tested version (devDependencies)`).toMatch(/^\d+\.\d+\.\d+$/);
        expect(satisfiesCaret(range!, parse(tested)), `${name}@${range} holds ${tested}`).toBe(true);
        const peer = pkg.peerDependencies[name];
        if (peer)
          expect(compare(parse(range!), parse(peer)), `${name}@${range} is inside ${peer}`).toBeGreaterThanOrEqual(0);
      }
    });
  }
});

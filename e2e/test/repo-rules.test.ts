/**
 * The repo's own rules as checks `npm test` runs first (scripts/check-deps.mjs), so packages other people add
 * follow them: the packaging rules of every public package, and tests that say why they skip.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPackages, publicPackages } from '../../scripts/check-packages.mjs';
import { silentSkips } from '../../scripts/check-skips.mjs';
import {
  findCycle,
  graphProblems,
  type LayeringNode,
  layeringProblems,
  ROLES,
  workspaceGraph,
} from '../../scripts/check-layering.mjs';
import { errorHandlingProblems } from '../../scripts/check-errors.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A throwaway workspace: a kernel and one more package with `pkg` as its package.json. */
function workspace(pkg: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-rules-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('package.json', JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }));
  write(
    'packages/kernel/package.json',
    JSON.stringify({
      name: '@tool-search/kernel',
      version: '0.1.0',
      description: 'k',
      files: ['dist', '!dist/.tsbuildinfo', 'src', 'README.md'],
    }),
  );
  write('packages/kernel/README.md', '# kernel');
  write('packages/new/package.json', JSON.stringify(pkg));
  write('packages/new/README.md', '# new');
  for (const [path, text] of Object.entries(files)) write(`packages/new/${path}`, text);
  return dir;
}

describe('packaging rules', () => {
  it('hold for every public package of this repo', () => {
    expect(checkPackages({ root })).toEqual([]);
    expect(publicPackages(root).map(({ pkg }) => pkg.name)).toContain('@tool-search/qa');
    expect(publicPackages(root).map(({ pkg }) => pkg.name)).not.toContain('@tool-search/e2e');
  });

  it('catch a pinned kernel dependency, a pinned internal dependency, build info in the tarball and an unshipped source condition; --fix repairs all but the last', () => {
    const pkg = {
      name: '@tool-search/new',
      version: '0.1.0',
      description: 'x',
      files: ['dist', 'README.md'],
      exports: { '.': { '@tool-search/source': './lib/index.ts', default: './dist/index.js' } },
      dependencies: { '@tool-search/kernel': '0.1.0', '@tool-search/search': '0.1.0' },
    };
    const dir = workspace(pkg);
    const problems = checkPackages({ root: dir });
    expect(problems.some((p) => p.includes('"files" lacks'))).toBe(true);
    expect(problems.some((p) => p.includes('peerDependency'))).toBe(true);
    expect(problems.some((p) => p.includes('./lib/index.ts'))).toBe(true);
    // Issue 41: an exact pin makes one package uninstallable without every other at that exact version.
    expect(problems.some((p) => p.includes('@tool-search/search is "0.1.0"'))).toBe(true);
    checkPackages({ root: dir, fix: true });
    const fixed = JSON.parse(readFileSync(join(dir, 'packages/new/package.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    expect(fixed.peerDependencies).toEqual({ '@tool-search/kernel': '^0.1.0' });
    expect(fixed.dependencies).toEqual({ '@tool-search/search': '^0.1.0' });
    expect(checkPackages({ root: dir })).toEqual([expect.stringContaining('./lib/index.ts')]);
  });
});

describe('the root README', () => {
  it('lists every public package', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Packages'), readme.indexOf('## Development'));
    expect(
      publicPackages(root)
        .map(({ pkg }) => pkg.name)
        .filter((name) => !table.includes(`\`${name}\``)),
    ).toEqual([]);
  });
});

describe('tests that can skip', () => {
  it('say why, in this repo', () => {
    expect(silentSkips(root)).toEqual([]);
  });

  it('are caught when they skip silently', () => {
    const skipping = "import { it } from 'vitest';\nit.skipIf(true)('x', () => {});\n";
    const dir = workspace(
      { name: '@tool-search/new', private: true },
      { 'test/a.test.ts': skipping, 'test/b.test.ts': 'console.warn(`skipping b: no data`);\n' + skipping },
    );
    expect(silentSkips(dir)).toEqual([join(dir, 'packages/new/test/a.test.ts')]);
  });
});

describe('layering rule', () => {
  const tree = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-search-layers-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
  /** A package.json of `@tool-search/<short>` with a role (none when undefined) and internal deps. */
  const manifest = (short: string, role: string | undefined, deps: string[] = [], dev: string[] = []) => {
    const internal = (names: string[]) => Object.fromEntries(names.map((n) => [`@tool-search/${n}`, '^0.1.0']));
    return {
      [`packages/${short}/package.json`]: JSON.stringify({
        name: `@tool-search/${short}`,
        ...(role ? { toolSearch: { role } } : {}),
        dependencies: internal(deps),
        devDependencies: internal(dev),
      }),
    };
  };
  const node = (short: string, role: string | undefined, runtime: string[] = [], dev: string[] = []): LayeringNode => ({
    short,
    role,
    runtime,
    dev,
  });
  const none = new Map<string, string>();

  it('holds for this repo', () => {
    expect(layeringProblems(root)).toEqual([]);
  });

  it('every workspace package of this repo declares a known role', () => {
    const graph = workspaceGraph(root);
    expect(graph.length).toBeGreaterThan(50);
    expect(graph.filter((p) => !ROLES.includes(p.role as never)).map((p) => p.short)).toEqual([]);
    const roleOf = Object.fromEntries(graph.map((p) => [p.short, p.role]));
    // The packages the old name-prefix rule missed.
    expect([roleOf.policy, roleOf.telemetry]).toEqual(['plugin', 'plugin']);
    expect([roleOf['ai-sdk'], roleOf.langchain, roleOf['openai-agents']]).toEqual(['adapter', 'adapter', 'adapter']);
  });

  it('refuses a package without a role, naming the fix', () => {
    const problems = graphProblems([node('kernel', 'library'), node('thing', undefined, ['kernel'])], none);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('thing/package.json: no role');
    expect(problems[0]).toContain('"toolSearch": { "role": "<library|');
    expect(graphProblems([node('thing', 'widget')], none)[0]).toContain('unknown role "widget"');
  });

  it('refuses a forbidden edge, naming both packages and roles, runtime and dev apart', () => {
    const graph = [
      node('kernel', 'library'),
      node('plugin-a', 'plugin', ['plugin-b']),
      node('plugin-b', 'plugin'),
      node('testing', 'qa'),
      node('search', 'library', [], ['testing', 'plugin-b']),
      node('plugin-c', 'plugin', ['kernel'], ['plugin-b', 'testing']),
    ];
    expect(graphProblems(graph, none)).toEqual([
      'plugin-a (plugin) has the dependency plugin-b (plugin); a plugin may depend on library only (scripts/check-layering.mjs)',
      'search (library) has the devDependency plugin-b (plugin); a library may dev-depend on library, qa only (scripts/check-layering.mjs)',
    ]);
    // A listed exception lets one edge through.
    expect(
      graphProblems(
        graph,
        new Map([
          ['plugin-a -> plugin-b', 'why'],
          ['search -> plugin-b', 'why'],
        ]),
      ),
    ).toEqual([]);
  });

  it('refuses a cycle made of devDependencies, printing its path', () => {
    const graph = [
      node('kernel', 'library'),
      node('state', 'library', ['kernel'], ['testing']),
      node('testing', 'qa', ['session-log'], ['plugin-x']),
      node('session-log', 'library'),
      node('plugin-x', 'plugin', ['state']),
    ];
    expect(findCycle(graph)).toEqual(['state', 'testing', 'plugin-x', 'state']);
    expect(graphProblems(graph, none)).toEqual([
      'package cycle state -> testing -> plugin-x -> state (devDependencies included; Nx refuses it)',
    ]);
    expect(findCycle(graph.map((p) => (p.short === 'testing' ? { ...p, dev: [] } : p)))).toBeUndefined();
  });

  it('catches a plugin importing a plugin and a front end or adapter importing a plugin, not a type-only import', () => {
    const dir = tree({
      ...manifest('kernel', 'library'),
      ...manifest('plugin-a', 'plugin'),
      ...manifest('plugin-b', 'plugin'),
      ...manifest('mode-code', 'plugin'),
      ...manifest('plugin-fs', 'plugin'),
      ...manifest('plugin-approvals', 'plugin'),
      ...manifest('policy', 'plugin'),
      ...manifest('gateway', 'front-end', ['preset', 'plugin-fs']),
      ...manifest('cli', 'front-end', ['plugin-approvals']),
      ...manifest('preset', 'composition', ['plugin-fs']),
      ...manifest('langchain', 'adapter', ['preset']),
      'packages/plugin-a/src/index.ts':
        "import { b } from '@tool-search/plugin-b';\nimport type { B } from '@tool-search/plugin-b';\nexport const c = () => import('@tool-search/mode-code');\n",
      'packages/gateway/src/index.ts':
        "import { fsPlugin } from '@tool-search/plugin-fs';\nimport { createFrontEnd } from '@tool-search/preset';\n",
      'packages/cli/src/index.ts': "import type { Approver } from '@tool-search/plugin-approvals';\n",
      'packages/preset/src/index.ts': "import { fsPlugin } from '@tool-search/plugin-fs';\n",
      // policy has no plugin- prefix: the declared role is what counts.
      'packages/langchain/src/index.ts': "import { policyPlugin } from '@tool-search/policy';\n",
    });
    const problems = layeringProblems(dir).map((line) => line.replace(dir, ''));
    expect(problems).toHaveLength(4);
    expect(problems.filter((line) => line.includes('plugin plugin-a imports plugin plugin-b'))).toHaveLength(1);
    expect(problems.filter((line) => line.includes('plugin plugin-a imports plugin mode-code'))).toHaveLength(1);
    expect(problems.filter((line) => line.includes('front-end gateway imports plugin plugin-fs'))).toHaveLength(1);
    expect(problems.filter((line) => line.includes('adapter langchain imports plugin policy'))).toHaveLength(1);
  });
});

describe('error handling rule', () => {
  it('holds for this repo', () => {
    expect(errorHandlingProblems(root)).toEqual([]);
  });

  it('catches a copied message ternary and an uncommented silent catch, not commented ones or test files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tool-search-errors-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write(
      'packages/plugin-a/src/index.ts',
      [
        'export const m = (error: unknown) => (error instanceof Error ? error.message : String(error));',
        'export const a = (p: Promise<void>) => p.catch(() => undefined);',
        'export const b = (p: Promise<void>) => p.catch(() => {});',
        'export const c = (p: Promise<void>) => p.catch(() => undefined); // closing: the socket may be gone',
        '// removing a temp file that may be gone',
        'export const d = (p: Promise<void>) => p.catch(() => undefined);',
        '',
        '// a comment that does not belong to the next line',
        '',
        'export const e = (p: Promise<void>) => p.catch(() => undefined);',
      ].join('\n'),
    );
    write('packages/plugin-a/test/a.test.ts', 'export const t = (p: Promise<void>) => p.catch(() => undefined);\n');
    const problems = errorHandlingProblems(dir).map((line) => line.replace(dir, ''));
    expect(problems.map((line) => line.split(': ')[0])).toEqual([
      '/packages/plugin-a/src/index.ts:1',
      '/packages/plugin-a/src/index.ts:2',
      '/packages/plugin-a/src/index.ts:3',
      '/packages/plugin-a/src/index.ts:10',
    ]);
    expect(problems[0]).toContain('errorMessage');
  });
});

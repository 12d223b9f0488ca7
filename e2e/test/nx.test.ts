/**
 * The Nx workspace works (issue 41): its project graph has no cycle (devDependencies included, and the imports Nx
 * reads from the sources), every project builds through the one-tsc batch executor (scripts/nx-tsc), a second build
 * is served from Nx's cache with its outputs in place, and `affected` follows the graph.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const NX = join(ROOT, 'node_modules/nx/bin/nx.js');
const run = promisify(execFile);

async function nx(...args: string[]): Promise<string> {
  // CI sets NX_SKIP_NX_CACHE for its own build (a clean clone); this test is about the cache, so it uses it.
  const { NX_SKIP_NX_CACHE: _skipped, ...env } = process.env;
  const { stdout, stderr } = await run(process.execPath, [NX, ...args], {
    cwd: ROOT,
    env: { ...env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return `${stdout}${stderr}`;
}

/** A cycle of `edges` (as a list of names, first = last), or undefined: depth-first, grey/black marking. */
function findCycle(edges: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The workspace packages' dependency edges from their package.json files, every kind of dependency included. */
function packageEdges(): Map<string, string[]> {
  const dirs = [...readdirSync(join(ROOT, 'packages')).map((d) => `packages/${d}`), 'e2e', 'bench'];
  const pkgs = dirs
    .filter((dir) => existsSync(join(ROOT, dir, 'package.json')))
    .map((dir) => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')));
  const names = new Set(pkgs.map((p) => p.name as string));
  return new Map(
    pkgs.map((p) => [
      p.name,
      Object.keys({ ...p.dependencies, ...p.devDependencies, ...p.peerDependencies, ...p.optionalDependencies }).filter(
        (name) => names.has(name),
      ),
    ]),
  );
}

describe('findCycle', () => {
  it('finds a cycle through a devDependency and none in a tree', () => {
    const cyclic = new Map([
      ['testing', ['telemetry']],
      ['telemetry', ['state', 'kernel']],
      ['state', ['testing']],
      ['kernel', []],
    ]);
    expect(findCycle(cyclic)).toEqual(['testing', 'telemetry', 'state', 'testing']);
    expect(
      findCycle(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toBeUndefined();
  });
});

describe('the Nx workspace', { timeout: 300_000 }, () => {
  it('has no package cycle, devDependencies included', () => {
    expect(findCycle(packageEdges())).toBeUndefined();
  });

  it("has no cycle in Nx's project graph, and every project builds with the batch executor", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'nx-graph-')), 'graph.json');
    await nx('graph', `--file=${file}`);
    const { graph } = JSON.parse(readFileSync(file, 'utf8'));
    const edges = new Map<string, string[]>(
      Object.entries(graph.dependencies as Record<string, { target: string }[]>).map(([name, deps]) => [
        name,
        deps.map((dep) => dep.target).filter((target) => target in graph.nodes),
      ]),
    );
    expect(findCycle(edges)).toBeUndefined();
    // A package without the executor line would build alone (one tsc per package: minutes, not seconds).
    const builds = Object.entries(graph.nodes as Record<string, { data: { targets: Record<string, any> } }>).map(
      ([name, node]) => [name, node.data.targets.build?.executor],
    );
    expect(builds.filter(([, executor]) => executor !== './scripts/nx-tsc:build')).toEqual([]);
    expect(builds.length).toBeGreaterThan(50);
  });

  it('serves a second build from its cache, outputs in place', async () => {
    // Two small projects whose builds do not depend on each other's: the first run builds them or finds them
    // cached, the second must take both from the cache.
    const projects = ['--projects=@tool-search/kernel,@tool-search/session-log', '--excludeTaskDependencies'];
    await nx('run-many', '-t', 'build', ...projects, '--outputStyle=static');
    const second = await nx('run-many', '-t', 'build', ...projects, '--outputStyle=static');
    expect(second).toContain('Nx read the output from the cache instead of running the command for 2 out of 2 tasks');
    for (const dir of ['packages/kernel', 'packages/session-log'])
      expect(existsSync(join(ROOT, dir, 'dist/index.js'))).toBe(true);
  });

  it('counts as affected what depends on a change, and only that', async () => {
    const affected = (await nx('show', 'projects', '--affected', '--files=packages/session-log/src/index.ts'))
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('@tool-search/'));
    expect(affected).toEqual(
      expect.arrayContaining(['@tool-search/session-log', '@tool-search/telemetry', '@tool-search/testing']),
    );
    expect(affected).not.toContain('@tool-search/kernel');
    expect(affected).not.toContain('@tool-search/search');
  });
});

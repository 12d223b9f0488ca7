// The layering rule, run by scripts/check-deps.mjs (so by `npm test`). Every workspace package declares its role in
// package.json (`"toolSearch": { "role": "plugin" }`); the rule reads it, never guesses it from the name. Three checks:
// 1. package.json edges: each internal dependency (peer included) and devDependency goes to a role its role may use
//    (RUNTIME_EDGES, DEV_EDGES); 2. no package cycle at all, devDependencies included (Nx refuses a circular task
// graph); 3. code: a plugin's src never imports another plugin and a front end's or adapter's src imports the preset,
// not plugins (`import type` is fine: it is erased at build time). Biome cannot say this (its noRestrictedImports
// takes fixed names per folder), so it lives here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** library: shared code, no KernelPlugin; plugin: a KernelPlugin (or several); front-end: a process users run;
 * composition: the preset; adapter: Tool Search inside another agent framework (used like a front end, through the
 * preset, but published as a library other programs import, so nothing here may depend on it but qa); qa: test kits,
 * mocks, scenarios, e2e and bench; tool: build or repo tooling (no package has it today). */
export const ROLES = ['library', 'plugin', 'front-end', 'composition', 'adapter', 'qa', 'tool'];

/** role -> roles its dependencies and peerDependencies may have. */
export const RUNTIME_EDGES = {
  library: ['library'],
  plugin: ['library'],
  // The preset composes the plugins and the front ends (createFrontEnd, runGateway, serveMcp).
  composition: ['library', 'plugin', 'front-end'],
  // cli declares the plugins the preset loads by name (optional ones as peers) and runs `qa suite` with the mocks;
  // what a front end's code may import from a plugin is check 3.
  'front-end': ['library', 'plugin', 'composition', 'front-end', 'qa'],
  adapter: ['library', 'composition'],
  // bench measures the adapters and e2e helpers; qa scenarios drive the real gateway and preset.
  qa: ['library', 'plugin', 'composition', 'front-end', 'adapter', 'qa'],
  tool: ROLES,
};
/** role -> roles its devDependencies may have, on top of RUNTIME_EDGES: tests run with the test kit and mocks (qa),
 * and a plugin's tests may run it with other plugins behind a real gateway. */
export const DEV_EDGES = {
  library: ['qa'],
  plugin: ['plugin', 'front-end', 'qa'],
  composition: ['qa'],
  'front-end': ['qa'],
  adapter: ['plugin', 'qa'],
  qa: [],
  tool: [],
};

const CONFIG_WHY =
  'config validates each section of tool-search.json with the schema the plugin exports from its /options entry, so a bad config is refused before anything starts';
/** Justified exceptions, `importer -> imported` with why; they apply to the package.json edge and to the code check. */
export const LAYERING_EXCEPTIONS = new Map([
  [
    'mcp-server -> plugin-mcp',
    'the MCP front end relays the downstream servers of plugin-mcp (resources, prompts, forwarding): its McpDownstream contract, and isResourceNotFound with it',
  ],
  ...[
    'plugin-approvals',
    'plugin-embeddings',
    'plugin-loop-detection',
    'plugin-mcp',
    'mode-direct',
    'mode-directory',
  ].map((plugin) => [`config -> ${plugin}`, CONFIG_WHY]),
  [
    'otel-export -> telemetry',
    'a devDependency: its test exports, over OTLP, the spans and metrics the telemetry plugin records through the global providers',
  ],
  ...['gateway', 'inspect', 'cli'].map((frontEnd) => [
    `${frontEnd} -> telemetry`,
    'telemetry is a plugin and also the library of its own formats: the token counter and the session-log reader front ends use',
  ]),
]);

/** `{ short, role, runtime, dev }` of every workspace package (`short` is the folder name, as imports spell it). */
export function workspaceGraph(root = '.') {
  const dirs = [...readdirSync(join(root, 'packages')).map((d) => join('packages', d)), 'e2e', 'bench'];
  const internal = (deps) =>
    Object.keys(deps ?? {})
      .filter((name) => name.startsWith('@tool-search/'))
      .map((name) => name.slice('@tool-search/'.length));
  return dirs
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
      const short = dir.split('/').at(-1);
      const runtime = [...new Set([...internal(pkg.dependencies), ...internal(pkg.peerDependencies)])];
      const dev = internal(pkg.devDependencies).filter((d) => !runtime.includes(d));
      return { short, dir, role: pkg.toolSearch?.role, runtime, dev };
    });
}

/** Problems of a graph (see workspaceGraph): undeclared roles, edges the tables do not allow, cycles. */
export function graphProblems(graph, exceptions = LAYERING_EXCEPTIONS) {
  const problems = [];
  const roleOf = new Map(graph.map((p) => [p.short, p.role]));
  for (const p of graph.filter((p) => !ROLES.includes(p.role)))
    problems.push(
      `${p.dir ?? p.short}/package.json: ${p.role === undefined ? 'no role' : `unknown role "${p.role}"`}; add "toolSearch": { "role": "<${ROLES.join('|')}>" } (see CONTRIBUTING.md, Packages by role)`,
    );
  for (const p of graph.filter((p) => ROLES.includes(p.role))) {
    const edges = [...p.runtime.map((to) => [to, 'dependency']), ...p.dev.map((to) => [to, 'devDependency'])];
    for (const [to, kind] of edges) {
      const role = roleOf.get(to);
      if (!ROLES.includes(role) || to === p.short || exceptions.has(`${p.short} -> ${to}`)) continue;
      const allowed = kind === 'dependency' ? RUNTIME_EDGES[p.role] : [...RUNTIME_EDGES[p.role], ...DEV_EDGES[p.role]];
      if (!allowed.includes(role))
        problems.push(
          `${p.short} (${p.role}) has the ${kind} ${to} (${role}); a ${p.role} may ${kind === 'dependency' ? '' : 'dev-'}depend on ${allowed.join(', ')} only (scripts/check-layering.mjs)`,
        );
    }
  }
  const cycle = findCycle(graph);
  if (cycle) problems.push(`package cycle ${cycle.join(' -> ')} (devDependencies included; Nx refuses it)`);
  return problems;
}

/** One cycle over all internal edges (dependencies, peers and devDependencies) as a path `a, b, …, a`, or undefined. */
export function findCycle(graph) {
  const next = new Map(graph.map((p) => [p.short, [...p.runtime, ...p.dev].filter((to) => to !== p.short)]));
  const done = new Set();
  const visit = (node, path) => {
    const at = path.indexOf(node);
    if (at >= 0) return [...path.slice(at), node];
    if (done.has(node)) return undefined;
    for (const to of next.get(node) ?? []) {
      const found = visit(to, [...path, node]);
      if (found) return found;
    }
    done.add(node);
    return undefined;
  };
  for (const p of graph) {
    const found = visit(p.short, []);
    if (found) return found;
  }
  return undefined;
}

const walk = (dir) =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]))
    : [];
const IMPORT =
  /^\s*(?:import|export)(?!\s+type\b)[^;]*?from\s+'@tool-search\/([a-z0-9-]+)|import\('@tool-search\/([a-z0-9-]+)/gm;

/** Check 3: one line per src import of a plugin by a plugin, a front end or an adapter, naming the file and the fix. */
export function importProblems(root, graph) {
  const roleOf = new Map(graph.map((p) => [p.short, p.role]));
  const problems = [];
  for (const p of graph.filter((p) => ['plugin', 'front-end', 'adapter'].includes(p.role))) {
    for (const file of walk(join(root, p.dir, 'src')).filter((f) => f.endsWith('.ts'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const imported = m[1] ?? m[2];
        if (
          roleOf.get(imported) !== 'plugin' ||
          imported === p.short ||
          LAYERING_EXCEPTIONS.has(`${p.short} -> ${imported}`)
        )
          continue;
        problems.push(
          p.role === 'plugin'
            ? `${file}: plugin ${p.short} imports plugin ${imported}; plugins never import each other (move the shared code into its own package, as @tool-search/control-tools)`
            : `${file}: ${p.role} ${p.short} imports plugin ${imported}; front ends and adapters import @tool-search/preset (re-export what they need there, as preset/src/front-end-parts.ts does)`,
        );
      }
    }
  }
  return problems;
}

/** Every layering problem of the workspace at `root`: roles, package.json edges, cycles, then src imports. */
export function layeringProblems(root = '.') {
  const graph = workspaceGraph(root);
  return [...graphProblems(graph), ...importProblems(root, graph)];
}

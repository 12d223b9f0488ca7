// The layering rule, run by scripts/check-deps.mjs (so by `npm test`): a plugin never imports another plugin (shared
// code goes into its own package, as @tool-search/control-tools), and a front end imports the preset, not plugins.
// Only imports that load code count: `import type` is erased at build time. Biome cannot say "a package whose name
// matches X must not import one matching Y" (its noRestrictedImports takes fixed names per folder), so it lives here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const PLUGIN = /^(plugin|mode)-/;
const FRONT_ENDS = new Set(['cli', 'gateway', 'mcp-server', 'inspect']);
/** Justified exceptions, `importer -> imported` with why. */
export const LAYERING_EXCEPTIONS = new Map([
  [
    'mcp-server -> plugin-mcp',
    'the MCP front end relays the downstream servers of plugin-mcp (resources, prompts, forwarding): its McpDownstream contract, and isResourceNotFound with it',
  ],
]);

const walk = (dir) =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]))
    : [];
const IMPORT =
  /^\s*(?:import|export)(?!\s+type\b)[^;]*?from\s+'@tool-search\/([a-z0-9-]+)|import\('@tool-search\/([a-z0-9-]+)/gm;

/** One line per import that breaks the rule, naming the file and the fix. */
export function layeringProblems(root = '.') {
  const problems = [];
  for (const short of readdirSync(join(root, 'packages'))) {
    if (!PLUGIN.test(short) && !FRONT_ENDS.has(short)) continue;
    for (const file of walk(join(root, 'packages', short, 'src')).filter((f) => f.endsWith('.ts'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const imported = m[1] ?? m[2];
        if (!PLUGIN.test(imported) || imported === short || LAYERING_EXCEPTIONS.has(`${short} -> ${imported}`))
          continue;
        problems.push(
          PLUGIN.test(short)
            ? `${file}: plugin ${short} imports plugin ${imported}; plugins never import each other (move the shared code into its own package, as @tool-search/control-tools)`
            : `${file}: front end ${short} imports plugin ${imported}; front ends import @tool-search/preset (re-export what they need there, as preset/src/front-end-parts.ts does)`,
        );
      }
    }
  }
  return problems;
}

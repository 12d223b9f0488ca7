#!/usr/bin/env node
// Scaffolds packages/<dir> with the repo's standard files (package.json,
// tsconfigs, vitest config, src/index.ts). Usage:
//   node scripts/new-package.mjs <dir> --role <role> [--private] [--dep name@range ...] [--peer name] [--ref dir ...]
// The role (library, plugin, front-end, composition, adapter, qa, tool) is what scripts/check-layering.mjs checks.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...rest] = process.argv.slice(2);
if (!dir)
  throw new Error(
    'usage: new-package.mjs <dir> --role <role> [--dep n@r] [--peer n] [--dev n@r] [--ref dir] [--bin name=path]',
  );
const opts = { dep: [], peer: [], dev: [], ref: [], bin: [], role: [], private: false };
for (let i = 0; i < rest.length; i += 2) {
  if (rest[i] === '--private') {
    opts.private = true;
    i--;
    continue;
  }
  opts[rest[i].slice(2)].push(rest[i + 1]);
}
if (opts.role.length !== 1)
  throw new Error('new-package.mjs needs one --role (see CONTRIBUTING.md, "Packages by role")');
const VERSION = JSON.parse(readFileSync('packages/kernel/package.json', 'utf8')).version;

const root = join('packages', dir);
if (existsSync(join(root, 'package.json'))) throw new Error(`${root} exists`);
mkdirSync(join(root, 'src'), { recursive: true });
mkdirSync(join(root, 'test'), { recursive: true });

const split = (s) => {
  const at = s.lastIndexOf('@');
  return at > 0 ? [s.slice(0, at), s.slice(at + 1)] : [s, '*'];
};
const toObj = (list) => Object.fromEntries(list.map(split));
const name = `@tool-search/${dir}`;
const pkg = {
  name,
  toolSearch: { role: opts.role[0] },
  version: VERSION,
  description: '',
  type: 'module',
  license: 'MIT',
  main: './dist/index.js',
  types: './dist/index.d.ts',
  exports: { '.': { '@tool-search/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' } },
  // Sources ship so the source maps and the `@tool-search/source` condition resolve; build info does not.
  files: ['dist', '!dist/.tsbuildinfo', 'src', 'README.md'],
  ...(opts.bin.length ? { bin: Object.fromEntries(opts.bin.map((b) => b.split('='))) } : {}),
  scripts: {
    build: 'tsc -b tsconfig.build.json',
    typecheck: 'tsc -p tsconfig.spec.json --noEmit',
    test: 'vitest run',
  },
  // Internal peers (the kernel) take one caret range everywhere, with the exact workspace version for development.
  ...(opts.private ? { private: true } : {}),
  dependencies: toObj(opts.dep),
  ...(opts.peer.length ? { peerDependencies: Object.fromEntries(opts.peer.map((p) => [p, `^${VERSION}`])) } : {}),
  ...(opts.dev.length || opts.peer.length
    ? { devDependencies: { ...toObj(opts.dev), ...Object.fromEntries(opts.peer.map((p) => [p, VERSION])) } }
    : {}),
  engines: { node: '>=20.10' },
  // Nx builds every workspace with the batch executor (one tsc -b for all that changed; see scripts/nx-tsc).
  nx: { targets: { build: { executor: './scripts/nx-tsc:build' } } },
};
writeFileSync(join(root, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
const refs = opts.ref.map((r) => ({ path: `../${r}/tsconfig.build.json` }));
writeFileSync(
  join(root, 'tsconfig.json'),
  JSON.stringify(
    { files: [], references: [{ path: './tsconfig.build.json' }, { path: './tsconfig.spec.json' }] },
    null,
    2,
  ) + '\n',
);
writeFileSync(
  join(root, 'tsconfig.build.json'),
  JSON.stringify(
    {
      extends: '../../tsconfig.base.json',
      compilerOptions: { rootDir: 'src', outDir: 'dist', tsBuildInfoFile: 'dist/.tsbuildinfo' },
      include: ['src/**/*.ts'],
      references: refs,
    },
    null,
    2,
  ) + '\n',
);
writeFileSync(
  join(root, 'tsconfig.spec.json'),
  JSON.stringify(
    {
      extends: '../../tsconfig.base.json',
      compilerOptions: { composite: false, noEmit: true, rootDir: '.', customConditions: ['@tool-search/source'] },
      include: ['src/**/*.ts', 'test/**/*.ts'],
    },
    null,
    2,
  ) + '\n',
);
writeFileSync(
  join(root, 'vitest.config.ts'),
  `import { defineProject, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.base.js';

export default mergeConfig(base, defineProject({ test: { name: '${dir}' } }));
`,
);
if (!existsSync(join(root, 'src/index.ts'))) writeFileSync(join(root, 'src/index.ts'), 'export {};\n');
// The one-screen README template; `npm test` (check-packages) wants it and a description before the package ships.
const headings = ['What it taps', 'Install', 'Use', 'Options', 'Errors', 'Why this dependency', 'Compatibility'];
if (!existsSync(join(root, 'README.md')))
  writeFileSync(
    join(root, 'README.md'),
    `# ${name}\n\nTODO: one line.\n\n${headings.map((h) => `## ${h}\n`).join('\n')}`,
  );
// The root tsconfig.json references every build project (checked by check-deps.mjs).
const rootConfig = JSON.parse(readFileSync('tsconfig.json', 'utf8'));
rootConfig.references.push({ path: `./${root}/tsconfig.build.json` });
writeFileSync('tsconfig.json', JSON.stringify(rootConfig, null, 2) + '\n');
console.log(`created ${root}`);

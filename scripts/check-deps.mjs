#!/usr/bin/env node
// Checks that every @tool-search/* import in a project's src is declared in its
// package.json and referenced in its tsconfig.build.json (so Nx and tsc -b build in order).
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkPackages } from './check-packages.mjs';
import { layeringProblems } from './check-layering.mjs';
import { silentSkips } from './check-skips.mjs';
import { errorHandlingProblems } from './check-errors.mjs';

const projects = [...readdirSync('packages').map((d) => join('packages', d)), 'e2e', 'bench'].filter((d) =>
  existsSync(join(d, 'package.json')),
);
const walk = (dir) =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]))
    : [];
let problems = 0;
for (const dir of projects) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }));
  const tsconfig = existsSync(join(dir, 'tsconfig.build.json'))
    ? JSON.parse(readFileSync(join(dir, 'tsconfig.build.json'), 'utf8'))
    : { references: [] };
  const refs = new Set((tsconfig.references ?? []).map((r) => r.path.split('/').at(-2)));
  const used = new Set();
  for (const file of walk(join(dir, 'src')).filter((f) => f.endsWith('.ts'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(
      /(?:from |import\()'(@tool-search\/[a-z0-9-]+)(?:\/[a-z0-9-]+)*'/g,
    ))
      used.add(m[1]);
  }
  used.delete(pkg.name);
  for (const name of used) {
    const short = name.split('/')[1];
    if (!declared.has(name)) {
      problems++;
      console.log(`${dir}: imports ${name} but does not declare it`);
    }
    if (!refs.has(short) && short !== 'e2e') {
      problems++;
      console.log(`${dir}: imports ${name} but tsconfig.build.json has no reference to it`);
    }
  }
}
// Layering: no plugin imports a plugin; front ends import the preset, not plugins (scripts/check-layering.mjs).
for (const problem of layeringProblems()) {
  problems++;
  console.log(problem);
}
// Causes are kept and no failure is dropped without a comment saying why (scripts/check-errors.mjs).
for (const problem of errorHandlingProblems()) {
  problems++;
  console.log(problem);
}
// The root tsconfig.json (what editors and a bare `tsc -b` build) references every workspace's build project.
const rootRefs = new Set(
  JSON.parse(readFileSync('tsconfig.json', 'utf8')).references.map((r) => r.path.replace(/^\.\//, '')),
);
for (const dir of projects.filter((d) => existsSync(join(d, 'tsconfig.build.json')))) {
  if (!rootRefs.has(`${dir}/tsconfig.build.json`)) {
    problems++;
    console.log(
      `tsconfig.json: no reference to ${dir}/tsconfig.build.json (add { "path": "./${dir}/tsconfig.build.json" })`,
    );
  }
}
// The packaging rules (files, kernel peer range, exports) of every public package.
for (const problem of checkPackages()) {
  problems++;
  console.log(problem);
}
// Tests that can skip say why (missing data or build).
for (const file of silentSkips()) {
  problems++;
  console.log(`${file}: can skip without printing why; add console.warn(\`skipping …: <what is missing>\`)`);
}
console.log(
  problems
    ? `${problems} problems (node scripts/check-packages.mjs --fix repairs packaging ones)`
    : 'dependencies consistent, packaging rules followed',
);
process.exit(problems ? 1 : 0);

// The Nx executor of every project's `build` target (nx.json targetDefaults). Nx runs the tasks its cache cannot
// serve as one batch (`preferBatch`), and a batch is one `tsc -b` over those projects (scripts/build.mjs `buildDirs`):
// one type-checker for the whole build instead of a tsc process per package (measured: 120 s one per package,
// 25 s as one batch, cold, on 2 cores). CommonJS because Nx loads executors with require().
'use strict';

const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

/** Builds the batch's projects; one result per task, all failed when tsc failed (Nx caches none of them then). */
async function buildBatch(taskGraph, _inputs, _overrides, context) {
  const { buildDirs } = await import('../build.mjs');
  const tasks = Object.values(taskGraph.tasks);
  const rootOf = (task) => context.projectGraph.nodes[task.target.project].data.root;
  const dirs = [...new Set(tasks.map(rootOf))];
  process.stdout.write(`one tsc -b over ${dirs.length} project${dirs.length === 1 ? '' : 's'}\n`);
  const result = await buildDirs(dirs, {
    root: context.root,
    onBuilding: (dir) => process.stdout.write(`  building ${dir}  (${seconds()})\n`),
  });
  if (result.errors) process.stderr.write(result.errors);
  return Object.fromEntries(
    tasks.map((task) => {
      const dir = rootOf(task);
      const success = result.ok && !result.postbuildFailed.includes(dir);
      const what = result.built.includes(dir) ? 'built' : 'up to date';
      const terminalOutput = success ? `${dir}: ${what}\n` : `${dir}: FAILED\n${result.errors}`;
      return [task.id, { success, terminalOutput }];
    }),
  );
}

/** One project (`--batch=false`): the same build, a batch of one. */
async function build(_options, context) {
  const { buildDirs } = await import('../build.mjs');
  const dir = context.projectsConfigurations.projects[context.projectName].root;
  const result = await buildDirs([dir], { root: context.root });
  if (result.errors) process.stderr.write(result.errors);
  return { success: result.ok };
}

module.exports = { build, buildBatch };

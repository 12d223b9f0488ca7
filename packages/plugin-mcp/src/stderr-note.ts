/**
 * The few stderr lines a failure message quotes. npm's launchers end with
 * boilerplate ("A complete log of this run…", "tarball, folder, http url…"),
 * which a plain tail would keep instead of the line that names the package.
 */
import type { McpServerConfig } from './options.js';

const NOISE = [
  /^npm (error|ERR!) A complete log of this run/,
  /^npm (error|ERR!)( \d{3})?\s*$/,
  /^npm (error|ERR!)( \d{3})? Note that you can also install from a\s*$/,
  /^npm (error|ERR!)( \d{3})? tarball, folder, http url, or git url\.?\s*$/,
];
const LINES = 3;
const LINE_CHARS = 200;

/** ` (stderr: a | b | c)`: the last meaningful lines, plus the one naming an npm/npx package if it fell out. */
export function stderrNote(stderr: string, config: McpServerConfig): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !NOISE.some((noise) => noise.test(line)));
  const shown = lines.slice(-LINES);
  const pkg = launchedPackage(config);
  const naming = pkg ? lines.find((line) => line.includes(pkg) || line.includes(pkg.replace('/', '%2f'))) : undefined;
  if (naming && !shown.includes(naming)) shown.unshift(naming);
  return shown.length ? ` (stderr: ${shown.map((line) => line.slice(0, LINE_CHARS)).join(' | ')})` : '';
}

/** The package an `npx …` or `npm exec …` launch runs (its first positional argument), without a version. */
function launchedPackage(config: McpServerConfig): string | undefined {
  if (!('command' in config)) return undefined;
  const bin = config.command.split('/').pop() ?? '';
  const args = [...(config.args ?? [])];
  if (bin === 'npm' || bin === 'pnpm') {
    const exec = args.findIndex((arg) => arg === 'exec' || arg === 'x' || arg === 'dlx');
    if (exec === -1) return undefined;
    args.splice(0, exec + 1);
  } else if (bin !== 'npx' && bin !== 'pnpx') {
    return undefined;
  }
  const flagged = args.find((arg) => arg.startsWith('--package='))?.slice('--package='.length);
  const positional = flagged ?? args.find((arg) => !arg.startsWith('-'));
  return positional?.replace(/(.)@[^/]*$/, '$1');
}

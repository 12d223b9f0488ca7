// Issue 41: with `^2.12.0` for the SDK packages, npm installed 2.12.1 for this package beside the exact 2.12.0 the
// 0.223.0 exporters pin, nested in each of them (13 copies, 20.6 MB on disk in the full CLI). So the SDK packages are
// pinned to the exporters' versions.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const manifest = (path: string) =>
  JSON.parse(readFileSync(path, 'utf8')) as { version: string; dependencies: Record<string, string> };
const own = manifest(new URL('../package.json', import.meta.url).pathname).dependencies;
const EXPORTERS = ['@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/exporter-metrics-otlp-http'];

describe('OpenTelemetry dependencies', () => {
  it.each(EXPORTERS)('asks for exactly the SDK versions %s pins, so npm installs one copy of each', (name) => {
    const exporter = manifest(require.resolve(`${name}/package.json`));
    expect(exporter.version).toBe(own[name]);
    for (const [dependency, version] of Object.entries(exporter.dependencies))
      if (dependency in own) expect(own[dependency], dependency).toBe(version);
  });
});

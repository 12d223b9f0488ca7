/**
 * The package as the CLI's `qa suite` uses it: its public surface, and one real run of the scenario (a small catalog;
 * e2e/test/gateway-e2e.test.ts runs the sizes the issue names, e2e/test/assertions.test.ts tampers with reports).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as qa from '../src/index.js';

describe('@tool-search/qa', () => {
  it('exports the scenario library and nothing else', () => {
    expect(Object.keys(qa).sort()).toEqual(
      [
        'DIRECT_ONLY_TOOL',
        'FIXTURE_PLUGIN_ID',
        'LANES',
        'PROVIDER_MODES',
        'SCENARIO',
        'assertLanes',
        'createFixturePlugin',
        'formatSuite',
        'maxRatioToDirect',
        'runApprovalScenario',
        'runCodingScenario',
        'runExecApprovalScenario',
        'runLoopScenario',
        'runPollLoopScenario',
        'runQaSuite',
        'runSessionChainScenario',
        'suiteConfig',
        'toJson',
      ].sort(),
    );
    expect(qa.SCENARIO).toBe('tool-search-gateway-e2e');
    expect(qa.LANES).toEqual(['direct', 'code', 'tools', 'directory']);
  });

  it('needs no private workspace package at run time (the published CLI installs it alone)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      private?: boolean;
      dependencies: Record<string, string>;
    };
    expect(pkg.private).toBeUndefined();
    expect(Object.keys(pkg.dependencies)).not.toContain('@tool-search/e2e');
    expect(Object.keys(pkg.dependencies)).not.toContain('@tool-search/testing');
  });

  it.each(qa.PROVIDER_MODES)(
    'runs the scenario through the real gateway over %s: every lane reaches the target, every assertion holds',
    async (providerMode) => {
      const result = await qa.runQaSuite({ tools: 36, providerMode });
      expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.lanes.map((l) => [l.lane, l.targetCalled])).toEqual(qa.LANES.map((lane) => [lane, true]));
      const text = qa.formatSuite(result);
      expect(text).toContain(`${qa.SCENARIO}: 36 fake plugin tools`);
      expect(text).toContain('all assertions passed');
      const json = JSON.parse(JSON.stringify(qa.toJson(result))) as {
        lanes: { lane: string }[];
        assertions: { ok: boolean }[];
      };
      expect(json.lanes.map((l) => l.lane)).toEqual([...qa.LANES]);
      expect(json.assertions.every((a) => a.ok)).toBe(true);
    },
    180_000,
  );
});

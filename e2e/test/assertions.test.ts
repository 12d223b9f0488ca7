/** The QA scenario's assertions can fail: each tampered report below breaks exactly the point it should. */
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertLanes,
  createFixturePlugin,
  DIRECT_ONLY_TOOL,
  maxRatioToDirect,
  runQaSuite,
  type FixturePlugin,
  type LaneReport,
  type SuiteResult,
} from '@tool-search/qa';

let result: SuiteResult;
let fixture: FixturePlugin;
let dir: string;
const target = 'fake_plugin_tool_0017';
const targetId = `plugin:tool-search-e2e-fixture:${target}`;

beforeAll(async () => {
  result = await runQaSuite({ tools: 36 });
  dir = await mkdtemp(join(tmpdir(), 'tool-search-e2e-fixture-'));
  fixture = await createFixturePlugin(dir, 36);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

function failedAfter(change: (lanes: LaneReport[]) => LaneReport[]): string[] {
  return assertLanes(change(result.lanes.map((lane) => ({ ...lane }))), fixture, target, targetId)
    .filter((a) => !a.ok)
    .map((a) => a.name);
}
const lane = (lanes: LaneReport[], name: string) => lanes.findIndex((l) => l.lane === name);

describe('tool-search-gateway-e2e assertions', () => {
  it('pass on the real run', () => {
    expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(result.assertions.length).toBeGreaterThanOrEqual(20);
  });

  it('(3) fail when a direct-mode schema differs from the plugin tool schema', () => {
    const failed = failedAfter((lanes) => {
      const i = lane(lanes, 'direct');
      const declared = lanes[i]!.declared.map((t) =>
        t.name === target ? { ...t, parameters: { type: 'object' } } : t,
      );
      lanes[i] = { ...lanes[i]!, declared };
      return lanes;
    });
    expect(failed).toEqual(['direct mode exposes the fake plugin tools with their schemas']);
  });

  it('(4) fail when a lane does not show the direct-only tool', () => {
    const failed = failedAfter((lanes) => {
      const i = lane(lanes, 'code');
      lanes[i] = { ...lanes[i]!, declaredNames: lanes[i]!.declaredNames.filter((n) => n !== DIRECT_ONLY_TOOL) };
      return lanes;
    });
    expect(failed).toEqual([`code mode shows the direct-only tool ${DIRECT_ONLY_TOOL}`]);
  });

  it('(4) a second, legitimate direct-only tool shown in every lane passes; missing from one lane, only that fails', () => {
    const second = 'second_direct_only_tool';
    const withSecond = (lanes: LaneReport[]) =>
      lanes.map((l) => ({
        ...l,
        directOnlyNames: [...l.directOnlyNames, second],
        declaredNames: [...l.declaredNames, second],
      }));
    expect(failedAfter(withSecond)).toEqual([]);
    const failed = failedAfter((lanes) =>
      withSecond(lanes).map((l) =>
        l.lane === 'tools' ? { ...l, declaredNames: l.declaredNames.filter((n) => n !== second) } : l,
      ),
    );
    expect(failed).toEqual([`tools mode shows the direct-only tool ${second}`]);
  });

  it('(4) fail when a search lane shows a catalog tool that is not direct-only', () => {
    const failed = failedAfter((lanes) =>
      lanes.map((l) =>
        l.lane === 'code' ? { ...l, declaredNames: [...l.declaredNames, 'fake_plugin_tool_0003'] } : l,
      ),
    );
    expect(failed).toEqual(['code mode exposes only the compact bridge and direct-only tools']);
  });

  it('(5) fail when a search lane is more than a few percent of direct at the scenario size', () => {
    expect(maxRatioToDirect(1000)).toBe(0.05);
    const bound = maxRatioToDirect(fixture.tools.length);
    const failed = failedAfter((lanes) =>
      lanes.map((l) => (l.lane === 'directory' ? { ...l, ratioToDirect: bound + 0.01 } : l)),
    );
    expect(failed).toEqual([`directory mode request is at most ${Math.round(bound * 1000) / 10}% of direct's`]);
  });

  it('(6) fail without the bridge entry, or with counts that do not add up', () => {
    expect(failedAfter((lanes) => lanes.map((l) => (l.lane === 'code' ? { ...l, controlCalls: [] } : l)))).toEqual([
      "code session log has the bridge's own telemetry",
    ]);
    const miscounted = failedAfter((lanes) =>
      lanes.map((l) =>
        l.lane === 'tools' ? { ...l, controlCalls: l.controlCalls.map((c) => ({ ...c, calls: c.calls + 1 })) } : l,
      ),
    );
    expect(miscounted).toEqual(["tools session log has the bridge's own telemetry"]);
  });

  it('the scenario plugin is a module written to a temporary folder', async () => {
    expect(fixture.file.startsWith(dir)).toBe(true);
    expect(existsSync(fixture.file)).toBe(true);
    expect(fixture.plugin.name).toBe('tool-search-e2e-fixture');
    expect(result.lanes.find((l) => l.lane === 'direct')!.declaredNames).toContain(DIRECT_ONLY_TOOL);
  });
});

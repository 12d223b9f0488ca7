/**
 * What `tool-search-gateway-e2e` asserts, per the QA document's points, from
 * what the provider received and what the session logs say:
 * (1) direct mode calls the fake plugin tool; (2) each search mode calls the same tool id;
 * (3) direct mode exposes the fake plugin tools' schemas (compared, not counted);
 * (4) search modes expose only the compact bridge plus every direct-only tool (present in every lane);
 * (5) every search-mode request is at most a few percent of direct's at the scenario's size (5% at 1,000 tools), and its
 *     whole turn (discovery included) is smaller than direct's;
 * (6) the session log shows the expected calls and the bridge's own telemetry (the control call itself, with its
 *     search, describe and call counts).
 */
import { isDeepStrictEqual } from 'node:util';
import { CONTROL_TOOL_NAMES } from '@tool-search/control-tools';
import { CODE_TOOL_NAME } from '@tool-search/mode-code';
import type { SessionLogEntry } from '@tool-search/telemetry';
import type { FixturePlugin } from './fixture.js';
import type { LaneName, LaneReport, SuiteResult } from './suite.js';

export interface ControlCallReport {
  readonly name: string;
  readonly status: string;
  readonly searches: number;
  readonly describes: number;
  readonly calls: number;
}

/** The `origin` a lane's call to the target carries in the session log. */
export const ORIGIN_OF_LANE = { direct: 'direct', code: 'code', tools: 'tool_call', directory: 'directory' } as const;

const SEARCH_CONTROL_TOOLS = Object.values(CONTROL_TOOL_NAMES);
const CONTROL_TOOLS: Record<Exclude<LaneName, 'direct'>, readonly string[]> = {
  code: [CODE_TOOL_NAME],
  tools: SEARCH_CONTROL_TOOLS,
  directory: SEARCH_CONTROL_TOOLS,
};

/** The `control-call` events the kernel's exposure emits, as telemetry logged them. */
export function controlCallsIn(entries: readonly SessionLogEntry[]): ControlCallReport[] {
  return entries.flatMap((entry) => {
    if (entry.type !== 'event' || entry.event !== 'control-call') return [];
    const data = entry.data as Partial<ControlCallReport>;
    return [
      {
        name: String(data.name),
        status: String(data.status),
        searches: Number(data.searches),
        describes: Number(data.describes),
        calls: Number(data.calls),
      },
    ];
  });
}

export function assertLanes(
  lanes: readonly LaneReport[],
  fixture: FixturePlugin,
  target: string,
  targetId: string,
): SuiteResult['assertions'] {
  const direct = lanes.find((l) => l.lane === 'direct');
  const search = lanes.filter((l) => l.lane !== 'direct');
  const out: { name: string; ok: boolean; detail?: string }[] = [];
  const add = (name: string, ok: boolean, detail?: string) => out.push({ name, ok, ...(detail ? { detail } : {}) });

  add(
    'direct mode calls the fake plugin tool',
    Boolean(direct?.targetCalled && direct.finalAnswer.includes('FAKE_TOOL_OK')),
  );
  for (const lane of search) {
    add(
      `${lane.lane} mode calls the same tool (${targetId})`,
      lane.targetCalled && lane.finalAnswer.includes(`FAKE_TOOL_OK ${target}`),
    );
  }

  const mismatched = [...fixture.tools, fixture.directOnly].filter((tool) => {
    const sent = direct?.declared.find((t) => t.name === tool.name);
    return !sent || sent.description !== tool.description || !isDeepStrictEqual(sent.parameters, tool.inputSchema);
  });
  add(
    'direct mode exposes the fake plugin tools with their schemas',
    direct !== undefined && mismatched.length === 0,
    `${fixture.tools.length + 1 - mismatched.length} of ${fixture.tools.length + 1} fixture tools sent with the same description and input schema` +
      (mismatched.length
        ? `; differ: ${mismatched
            .slice(0, 3)
            .map((t) => t.name)
            .join(', ')}`
        : ''),
  );

  // (4) Every direct-only tool of the run's catalog (the fixture's and any other plugin's), and nothing else besides the bridge.
  add(
    `every lane's catalog marks ${fixture.directOnly.name} direct-only`,
    lanes.every((lane) => lane.directOnlyNames.includes(fixture.directOnly.name)),
  );
  for (const lane of lanes) {
    for (const name of lane.directOnlyNames)
      add(`${lane.lane} mode shows the direct-only tool ${name}`, lane.declaredNames.includes(name));
  }
  for (const lane of search) {
    const allowed = new Set([...CONTROL_TOOLS[lane.lane as Exclude<LaneName, 'direct'>], ...lane.directOnlyNames]);
    const extra = lane.declaredNames.filter((n) => !allowed.has(n));
    // Directory mode also shows up to 5 catalog tools ranked from the turn's last user message (mode-directory's turnTools).
    const turnTools = lane.lane === 'directory' ? extra.slice(0, 5) : [];
    const unexpected = extra.filter((n) => !turnTools.includes(n));
    add(
      `${lane.lane} mode exposes only the compact bridge and direct-only tools${lane.lane === 'directory' ? ' (and at most 5 turn tools)' : ''}`,
      unexpected.length === 0,
      unexpected.length
        ? `unexpected: ${unexpected.slice(0, 5).join(', ')}`
        : turnTools.length
          ? `turn tools: ${turnTools.join(', ')}`
          : undefined,
    );
  }

  // (5) A few percent of direct's request at the scenario's size: the bridge is a fixed cost, so the bound scales with
  // the catalog — 5% at the scenario's default 1,000 tools (measured: 0.2–0.6%), up to 90% for a tiny catalog.
  const bound = maxRatioToDirect(fixture.tools.length);
  for (const lane of search) {
    add(
      `${lane.lane} mode request is at most ${percent(bound)} of direct's`,
      lane.ratioToDirect !== null && lane.ratioToDirect <= bound,
      `ratio ${lane.ratioToDirect}`,
    );
  }
  for (const lane of search) {
    const turn = lane.turn;
    add(
      `${lane.lane} mode whole turn (discovery included) is smaller than direct's`,
      turn.ratioToDirect !== null && turn.ratioToDirect < 1,
      `${turn.requests} requests, ratio ${turn.ratioToDirect}`,
    );
  }

  for (const lane of lanes) {
    const calls = lane.summary.toolsCalled.filter((c) => c.id === targetId);
    const searchesOk = lane.lane === 'direct' || lane.lane === 'directory' ? lane.searches === 0 : lane.searches >= 1;
    add(
      `${lane.lane} session log shows the expected calls and searches`,
      lane.summary.toolsCalled.length === 1 &&
        calls.length === 1 &&
        calls[0]?.origin === ORIGIN_OF_LANE[lane.lane] &&
        calls[0]?.source === 'plugin' &&
        searchesOk,
      `calls=${lane.summary.toolsCalled.length} (target ${calls.length}) origin=${calls[0]?.origin ?? '-'} searches=${lane.searches}`,
    );
    add(
      `${lane.lane} session log has the bridge's own telemetry`,
      bridgeTelemetryOk(lane),
      describeBridge(lane.controlCalls),
    );
  }
  return out;
}

/**
 * code: one `tool_search_code` entry that searched and made the one call; tools: a `tool_search` entry that searched
 * and a `tool_call` entry that made the call; direct and directory: the model called the tool itself (no bridge).
 * In every lane the bridge's counts add up to the session's searches, describes and calls.
 */
function bridgeTelemetryOk(lane: LaneReport): boolean {
  const bridge = lane.controlCalls;
  const sum = (key: 'searches' | 'describes' | 'calls') => bridge.reduce((total, call) => total + call[key], 0);
  const find = (name: string) => bridge.find((call) => call.name === name && call.status === 'ok');
  switch (lane.lane) {
    case 'code': {
      const code = find(CODE_TOOL_NAME);
      return (
        bridge.length === 1 &&
        code !== undefined &&
        code.searches >= 1 &&
        code.calls === 1 &&
        code.describes === lane.describes &&
        sum('searches') === lane.searches
      );
    }
    case 'tools':
      return (
        (find(CONTROL_TOOL_NAMES.search)?.searches ?? 0) >= 1 &&
        find(CONTROL_TOOL_NAMES.call)?.calls === 1 &&
        sum('searches') === lane.searches &&
        sum('calls') === lane.calls
      );
    default:
      return bridge.length === 0;
  }
}

function describeBridge(calls: readonly ControlCallReport[]): string {
  if (!calls.length) return 'no control-tool calls';
  return calls
    .map(
      (call) => `${call.name} ${call.status} searches=${call.searches} describes=${call.describes} calls=${call.calls}`,
    )
    .join('; ');
}

/** The largest search-lane request, as a share of direct's, for a catalog of `tools` plugin tools. */
export function maxRatioToDirect(tools: number): number {
  return Math.min(0.9, 50 / Math.max(1, tools));
}

function percent(ratio: number): string {
  return `${Math.round(ratio * 1000) / 10}%`;
}

export {
  runQaSuite,
  runLoopScenario,
  runApprovalScenario,
  suiteConfig,
  formatSuite,
  toJson,
  SCENARIO,
  LANES,
  PROVIDER_MODES,
} from './suite.js';
export type {
  SuiteOptions,
  SuiteResult,
  LaneReport,
  LaneName,
  ProviderMode,
  GuardLaneReport,
  GuardScenarioResult,
} from './suite.js';
export { assertLanes, maxRatioToDirect } from './assertions.js';
export { createFixturePlugin, DIRECT_ONLY_TOOL, FIXTURE_PLUGIN_ID } from './fixture.js';
export type { FixturePlugin } from './fixture.js';
export { runCodingScenario, runExecApprovalScenario, runPollLoopScenario } from './coretools.js';
export type { CoreToolsScenarioResult } from './coretools.js';
export { runSessionChainScenario } from './sessions.js';
export type { SessionChainResult } from './sessions.js';

export { runQaSuite, runLoopScenario, runApprovalScenario, suiteConfig, formatSuite, toJson, SCENARIO, LANES } from './suite.js';
export type { SuiteOptions, SuiteResult, LaneReport, LaneName, GuardLaneReport, GuardScenarioResult } from './suite.js';
export { runCodingScenario, runExecApprovalScenario, runPollLoopScenario } from './coretools.js';
export type { CoreToolsScenarioResult } from './coretools.js';
export { runSessionChainScenario } from './sessions.js';
export type { SessionChainResult } from './sessions.js';
export { cliBin, startReplica, startReplicaSet, startRoundRobin } from './replicas.js';
export type { Replica, ReplicaOptions, ReplicaSet, RoundRobin } from './replicas.js';

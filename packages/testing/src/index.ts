export { checkSourceConformance } from './conformance.js';
export type { ConformanceCheck, ConformanceOptions, ConformanceReport } from './conformance.js';
export { createTestHarness } from './harness.js';
export type { TestHarness } from './harness.js';
export { fakeTool, toolSource } from './fixtures.js';
export { redisServerAvailable, startRedisServer, type RedisServerHandle } from './redis-server.js';
export { startOtlpReceiver, type OtlpReceiver, type ReceivedMetric, type ReceivedSpan } from './otlp-receiver.js';
export {
  stateBackends,
  type StateBackendFactories,
  type StateBackendKind,
  type StateBackends,
} from './state-backends.js';
export {
  assertDeferredEchoTurn,
  assertDeniedNeverFound,
  demoWithEverything,
  EVERYTHING_DENIED_ID,
  logDir,
  offeredPerRequest,
  sessionLog,
  type DemoWithEverything,
} from './adapters.js';
export { raceFolders, startSymlinkRacer, type SymlinkRacer, type SymlinkRacerOptions } from './symlink-racer.js';
export { LEARNING_QUERY, LEARNING_TARGET, learningCatalog } from './learning-catalog.js';
export { assertOptionsProof, type OptionsProofCase } from './options-proof.js';
export { chromiumPath, noteSkipped, systemProgramOnPath, type SystemPackage } from './system-programs.js';
export { canRunAsOtherUser, fetchAsUser, OTHER_UID, type UserRequest } from './as-user.js';

// The replica harness the e2e tests and the benchmarks share; the QA scenarios live in @tool-search/qa.
export { cliBin, startReplica, startReplicaSet, startRoundRobin } from './replicas.js';
export type { Replica, ReplicaOptions, ReplicaSet, RoundRobin } from './replicas.js';

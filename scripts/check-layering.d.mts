// Types of check-layering.mjs, for the test that imports it (e2e/test/repo-rules.test.ts).
export type Role = 'library' | 'plugin' | 'front-end' | 'composition' | 'adapter' | 'qa' | 'tool';
/** One workspace package: its folder name, declared role and internal edges (runtime = dependencies + peers). */
export interface LayeringNode {
  short: string;
  dir?: string;
  role: string | undefined;
  runtime: string[];
  dev: string[];
}
export const ROLES: Role[];
export const RUNTIME_EDGES: Record<Role, Role[]>;
export const DEV_EDGES: Record<Role, Role[]>;
export const LAYERING_EXCEPTIONS: Map<string, string>;
export function workspaceGraph(root?: string): LayeringNode[];
export function graphProblems(graph: LayeringNode[], exceptions?: Map<string, string>): string[];
export function findCycle(graph: LayeringNode[]): string[] | undefined;
export function importProblems(root: string, graph: LayeringNode[]): string[];
export function layeringProblems(root?: string): string[];

// The public surface of @tool-search/workspace: named exports only.
export { workspaceRoot, resolveInWorkspace, isInside } from './paths.js';
export type { PathRule, WorkspacePath } from './paths.js';
export { writeFileAtomic } from './atomic.js';

// The public surface of @tool-search/workspace: named exports only.
export { workspaceRoot, resolveInWorkspace, isInside } from './paths.js';
export type { PathRule, WorkspacePath } from './paths.js';
export { writeFileAtomic } from './atomic.js';
export {
  openInWorkspace,
  statInWorkspace,
  writeInWorkspace,
  removeInWorkspace,
  createFolderInWorkspace,
  confinedAccessIsRaceFree,
} from './confined.js';
export type { EntryKind, NewFolder } from './confined.js';
export { WorkspaceErrors } from './errors.js';
export { readAtMost } from './bounded-read.js';

// The public surface of @tool-search/inspect: named exports only.
export { startInspectServer, isLoopback, DEFAULT_ASSETS_DIR } from './server.js';
export type { InspectServer, InspectServerOptions, InspectLive } from './server.js';
export { createInspectData, sourceProblems, INSPECT_MODES, OPTIONAL_MODES } from './data.js';
export type { InspectData, InspectDataOptions } from './data.js';
export { listSessions, readSession } from './sessions.js';
export type { SessionSources } from './sessions.js';
export { scoreParts } from './score-parts.js';
export { InspectErrors } from './errors.js';
export type * from './types.js';
export { createLiveFeed } from './live.js';
export type { LiveFeed, McpStatusLike } from './live.js';

export { runTurn } from './turn.js';
export type { TurnInput, TurnOptions, TurnResult, TurnToolCall, ClientFunctionTool } from './turn.js';
export { startGatewayServer, sendJson } from './server.js';
export type { GatewayServer, GatewayServerOptions } from './server.js';
export { createProviderClient } from './provider.js';
export type { ProviderConfig } from './provider.js';
export { renderOutcome, renderResult } from './render.js';

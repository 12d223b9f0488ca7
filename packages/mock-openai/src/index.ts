// The public surface of @tool-search/mock-openai: named exports only.
export { MOCK_EMBEDDING_MODEL, startMockOpenAI } from './server.js';
export { embed, EMBEDDING_DIMENSIONS } from './embeddings.js';
export type { MockOpenAI, MockOpenAIOptions } from './server.js';
export {
  planNextStep,
  codeFor,
  collectHits,
  failedResult,
  isNameFor,
  OK_MARKER,
  SEARCH_TOOL,
  DEFERRED_SEARCH_TOOLS,
  CALL_TOOL,
  CODE_TOOL,
} from './plan.js';
export { parseScript, textOf } from './script.js';
export { describeDocuments, documentError, pdfParts, readPdf, tinyPdf } from './documents.js';
export type { PdfPart } from './documents.js';
export { MOCK_MODEL } from './response.js';
export { commonPrefix, createPromptCache, promptOf } from './prompt-cache.js';
export type { PromptCache, PromptCacheOptions } from './prompt-cache.js';
export type {
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatToolCall,
  ContentPart,
  Lane,
  RecordedRequest,
  Script,
  Step,
} from './types.js';
export { listenLocal, parseJson, readBody, send, serveLocal } from './http.js';
export type { Received } from './http.js';
export { createRecorder, DEFAULT_RECORD_LIMITS } from './record.js';
export type { Recorder, RecordLimits } from './record.js';

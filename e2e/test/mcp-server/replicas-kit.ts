// The replica kit of @tool-search/mcp-server's own tests, shared with the tests here (one copy).
export * from '../../../packages/mcp-server/test/replicas-kit.js';

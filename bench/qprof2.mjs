import { createToolSearchKernel } from '@tool-search/preset';
const SNIP = 'const hits = await openclaw.tools.search("read a text file from the workspace");\nconst r = await openclaw.tools.call(hits[0].id, { path: "notes.txt" });\nreturn { id: hits[0].id, isError: r.isError ?? false };';
const { kernel } = await createToolSearchKernel({ plugins: { 'fake-catalog': { tools: 975, core: true } }, tools: { toolSearch: { mode: 'code', warmPool: 0, sandbox: 'quickjs' } } });
const run = await kernel.createRun({ provider: 'openai', model: 'gpt-4.1' });
const ex = await run.exposure('code');
for (let i = 0; i < 200; i++) await ex.call('tool_search_code', { code: SNIP });
const t0 = Date.now(); for (let i = 0; i < 3000; i++) await ex.call('tool_search_code', { code: SNIP });
console.log('per run', (Date.now() - t0) / 3000);
await kernel.close();

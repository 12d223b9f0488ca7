// The public surface of @tool-search/plugin-fake-catalog: named exports only.
export {
  fakeCatalogPlugin,
  fakeToolText,
  fakeResultNote,
  PLUGIN_NAME,
  FAKE_CATALOG_OWNER,
  FAKE_DESCRIPTION_PREFIX,
} from './plugin.js';
export { DEMO_TOOLS } from './demo-tools.js';
export type { DemoToolSpec } from './demo-tools.js';
export type { FakeCatalogOptions } from './plugin.js';
export { CORE_TOOLS } from './core-tools.js';
export type { CoreToolSpec } from './core-tools.js';
export { generateFakeTool, fakeToolName, byteSize, SIZE_MODEL } from './generate.js';
export type { FakeToolSpec } from './generate.js';

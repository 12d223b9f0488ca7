// The public surface of @tool-search/chromium: named exports only.
export { findChromium, CHROMIUM_FLAGS, CHROMIUM_CANDIDATES } from './chromium.js';

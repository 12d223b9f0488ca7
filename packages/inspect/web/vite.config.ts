// Builds the page into ../assets (committed, so `tool-search inspect` needs no build step when installed).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  // jsxDev off whatever NODE_ENV says (vitest sets `test`), so the build is the same from the CLI and from a test.
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact', jsxDev: false },
  define: { 'process.env.NODE_ENV': '"production"' },
  mode: 'production',
  build: {
    outDir: fileURLToPath(new URL('../assets', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Stable names keep the committed assets' diff small when nothing changed.
    rollupOptions: { output: { entryFileNames: 'app.js', chunkFileNames: '[name].js', assetFileNames: '[name][extname]' } },
  },
});

/**
 * Issue 41: the heavy capabilities are optional peers of the preset. Where one is missing, the tool it gives is not
 * listed and a diagnostic names the package to install; what a process itself needs throws PRESET_CAPABILITY_MISSING
 * with the same `npm install` line. (The workspace links every package; e2e/test/install-size.test.ts installs the
 * CLI without them from a registry and checks what `config check` says there.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode } from '@tool-search/kernel';
import { createToolSearchKernel, PresetErrors } from '@tool-search/preset';
import {
  capabilityInstalled,
  capabilityMissing,
  missingCapabilitiesPlugin,
  OPTIONAL_CAPABILITIES,
} from '../src/capabilities.js';

const nowhere = () => pathToFileURL(join(mkdtempSync(join(tmpdir(), 'preset-capabilities-')), 'x.js')).href;

describe('optional capabilities', () => {
  it('are found where installed (the workspace has them all) and not from a folder without them', () => {
    for (const pkg of Object.values(OPTIONAL_CAPABILITIES)) {
      expect(capabilityInstalled(pkg)).toBe(true);
      expect(capabilityInstalled(pkg, nowhere())).toBe(false);
    }
  });

  it('a missing one is a coded error naming the npm install line', () => {
    const error = capabilityMissing(OPTIONAL_CAPABILITIES.gateway, 'the gateway');
    expect(error.code).toBe(PresetErrors.PRESET_CAPABILITY_MISSING);
    expect(error.details).toEqual({ package: '@tool-search/gateway', install: 'npm install @tool-search/gateway' });
  });

  it('a core tool whose package is missing is not listed; a diagnostic per tool says what to install', async () => {
    const kernel = createKernel({
      plugins: missingCapabilitiesPlugin([
        { tool: 'pdf', pkg: OPTIONAL_CAPABILITIES.pdf },
        { tool: 'browser', pkg: OPTIONAL_CAPABILITIES.browser },
      ]),
    });
    try {
      const run = await kernel.createRun();
      expect(run.tool('pdf')).toBeUndefined();
      expect(run.diagnostics).toContainEqual(
        expect.objectContaining({
          code: ErrorCode.TOOL_NOT_CONFIGURED,
          toolId: 'core:core:browser',
          details: {
            tool: 'browser',
            package: '@tool-search/plugin-browser',
            install: 'npm install @tool-search/plugin-browser',
          },
        }),
      );
    } finally {
      await kernel.close();
    }
  });

  it('plugins.core lists web and pdf when their packages are installed (the browser test needs chromium)', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'preset-capabilities-ws-'));
    const { kernel } = await createToolSearchKernel({ plugins: { core: { workspace } } });
    try {
      const run = await kernel.createRun();
      expect(run.tool('web_fetch')?.id).toBe('core:core:web_fetch');
      expect(run.tool('pdf')?.id).toBe('core:core:pdf');
      expect(run.diagnostics.filter((d) => (d.details as { package?: string } | undefined)?.package)).toEqual([]);
    } finally {
      await kernel.close();
    }
  });
});

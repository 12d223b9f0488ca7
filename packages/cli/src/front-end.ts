/**
 * The preset's front-end composition (`createFrontEnd`) with the terminal's parts: the state store's problems on
 * stderr, and the CLI's kernel (MCP client with the terminal's login and the demo-catalog notice).
 */
import type { ToolSearchConfig } from '@tool-search/config';
import { createFrontEnd, type FrontEnd, type FrontEndOptions } from '@tool-search/preset';
import type { CliIO } from './io.js';
import { createCliKernel } from './options.js';

export function createCliFrontEnd(config: ToolSearchConfig, io: CliIO, options: Omit<FrontEndOptions, 'env' | 'onStateError' | 'createKernel'> = {}): Promise<FrontEnd> {
  return createFrontEnd(config, {
    env: io.env ?? process.env,
    // The store reports the first connection problem of each outage only.
    onStateError: (error) => void io.stderr.write(`tool-search: state store: ${error.message} (reconnecting; loop detection and approvals fail closed meanwhile)\n`),
    createKernel: (kernelConfig, presetOptions) => createCliKernel(kernelConfig, io, presetOptions),
    ...options,
  });
}

/**
 * The preset's front-end composition (`createFrontEnd`, `runGateway`, `serveMcp`) with the terminal's parts: the state
 * store's problems on stderr, and the CLI's kernel (MCP client with the terminal's login and the demo-catalog notice).
 */
import type { FrontEndOptions } from '@tool-search/preset';
import type { CliIO } from './io.js';
import { createCliKernel } from './options.js';

/** What every front end of this CLI passes the preset. */
export function cliFrontEndOptions(
  io: CliIO,
): Required<Pick<FrontEndOptions, 'env' | 'onStateError' | 'createKernel'>> {
  return {
    env: io.env ?? process.env,
    // The store reports the first connection problem of each outage only.
    onStateError: (error) =>
      void io.stderr.write(
        `tool-search: state store: ${error.message} (reconnecting; loop detection and approvals fail closed meanwhile)\n`,
      ),
    createKernel: (kernelConfig, presetOptions) => createCliKernel(kernelConfig, io, presetOptions),
  };
}

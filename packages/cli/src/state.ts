/**
 * The state store a command runs with: Redis when the config's
 * `state.redis.url` is set (a replica among others), else in-process. The
 * store is connected before the command listens, so a Redis that does not
 * answer stops the command with one `STATE_UNAVAILABLE` line.
 */
import type { ToolSearchConfig } from '@tool-search/config';
import type { StateStore } from '@tool-search/state';
import type { CliIO } from './io.js';

export async function createCliState(config: ToolSearchConfig, io: CliIO): Promise<StateStore> {
  const { createStateStore } = await import('@tool-search/state');
  return createStateStore(config.state ?? {}, {
    env: io.env ?? process.env,
    // The store reports the first connection problem of each outage only.
    onError: (error) =>
      void io.stderr.write(
        `tool-search: state store: ${error.message} (reconnecting; loop detection and approvals fail closed meanwhile)\n`,
      ),
  });
}

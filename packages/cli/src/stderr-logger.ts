/** Operator logs on stderr (warnings and errors only), as `serve mcp` and the gateway write them. */
import type { Logger } from '@tool-search/kernel';
import { errorMessage } from '@tool-search/kernel/errors';
import type { CliIO } from './io.js';

export function stderrLogger(io: CliIO): Logger {
  const write = (level: string) => (message: string, data?: Record<string, unknown>) =>
    void io.stderr.write(
      `tool-search: ${level} ${message}${data && Object.keys(data).length ? ` ${logData(data)}` : ''}\n`,
    );
  return { debug: () => undefined, info: () => undefined, warn: write('warn'), error: write('error') };
}

/** Log data as JSON: an error (a `cause`) as its name, message, code and own cause; data JSON cannot hold is named, not thrown. */
function logData(data: Record<string, unknown>): string {
  try {
    // `this[key]` is the value before `toJSON` (ToolSearchError's wire view drops the name and the cause).
    return JSON.stringify(data, function (this: Record<string, unknown>, key: string, value: unknown) {
      const raw = this[key];
      if (raw instanceof Error) {
        const code = (raw as { code?: unknown }).code;
        return {
          name: raw.name,
          message: raw.message,
          ...(code !== undefined ? { code } : {}),
          ...(raw.cause !== undefined ? { cause: raw.cause } : {}),
        };
      }
      return typeof value === 'bigint' ? String(value) : value;
    });
  } catch (error) {
    return `(log data not shown: ${errorMessage(error)})`;
  }
}

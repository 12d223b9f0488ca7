import type { KernelPlugin } from '@tool-search/kernel';

/** Where the CLI writes and what it runs in; tests pass buffers, `bin.ts` passes the process. */
export interface CliIO {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown };
  /** Folder the config is looked up in. */
  readonly cwd: string;
  /** Read for approval prompts, only when `isTTY` is true; otherwise calls that need approval are denied. */
  readonly stdin?: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  /**
   * Plugins appended to the preset's own for every kernel the CLI builds.
   * Configs cannot load code, so this is how an embedder (or a test) adds
   * sources, guards or plugin commands.
   */
  readonly plugins?: readonly KernelPlugin[];
  /** Stops long-running commands (`gateway`); without it they stop on SIGINT/SIGTERM. */
  readonly signal?: AbortSignal;
  /** Environment for provider keys (`provider.apiKeyEnv`); default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
}

/** A failure the user can fix: printed without a stack, exit code 1. */
export class CliInputError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CliInputError';
  }
}

/** A usage mistake commander cannot see (an unknown scenario): printed, exit code 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/** Ends a command with this exit code; whatever needed saying was already printed. */
export class CliExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = 'CliExit';
  }
}

export function writeJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

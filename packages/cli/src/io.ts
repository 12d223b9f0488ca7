/** Where the CLI writes and what it runs in; tests pass buffers, `bin.ts` passes the process. */
export interface CliIO {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown };
  /** Folder the config is looked up in. */
  readonly cwd: string;
}

/** A failure the user can fix: printed without a stack, exit code 1. */
export class CliInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliInputError';
  }
}

export function writeJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The MCP stdio transport, with three things the SDK's `StdioClientTransport`
 * does not do: the server runs in its own process group and `close()` ends
 * and waits for the whole group (see process-group.ts); a message over the
 * size limit fails the request it answers with the limit and the size (the
 * SDK drops the buffer and the call hangs until the stream breaks); and the
 * messages of one chunk are handed over one microtask apart, because the SDK
 * client dispatches a notification a microtask after reading it but drops a
 * request's progress handler as soon as it reads the response: progress sent
 * just before a result, read in the same chunk, was lost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  deserializeMessage,
  ProtocolErrorCode,
  serializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { endProcessGroup, groupMembers, trackGroup } from './process-group.js';

export interface StdioServerParams {
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Time the group gets after stdin closes, and again after SIGTERM, before SIGKILL. */
  readonly graceMs: number;
  /** Largest message (one line) accepted from the server; default the SDK's stdio limit. */
  readonly maxMessageBytes?: number;
  /** Receives the server's stderr from its first byte. */
  readonly onStderr?: (chunk: string) => void;
}

/** `error.data.reason` of the JSON-RPC error that stands in for a message over the size limit. */
export const MESSAGE_TOO_LARGE = 'message-too-large';

const KEEP = 256;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private closing: Promise<void> | undefined;
  /** Resolves on the child's `close`: it exited and its stdout and stderr have been read to the end. */
  private readonly closed: Promise<void>;
  private markClosed: () => void = () => {};
  private readonly limit: number;
  private chunks: Buffer[] = [];
  private lineBytes = 0;
  /** Messages read but not yet handed to `onmessage` (see `deliver`). */
  private readonly inbox: (() => JSONRPCMessage)[] = [];
  private delivering = false;
  /** While discarding an oversized line: its first and last bytes, to find the request id. */
  private oversized: { head: string; tail: string } | undefined;

  constructor(private readonly params: StdioServerParams) {
    this.limit = params.maxMessageBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
    this.closed = new Promise((resolve) => {
      this.markClosed = resolve;
    });
  }

  /**
   * Waits, at most `ms`, until the child has exited and all its stderr has reached `onStderr`. A server that exits
   * at start can fail our first write (EPIPE) before its last words on stderr are read; the failure should name them.
   */
  async settled(ms: number): Promise<void> {
    if (!this.child) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /**
   * The child's stderr (read by `onStderr`). With `pid`, it is how the SDK's version probe knows this is a
   * stdio transport: a server that closes or stays silent on `server/discover` is then a legacy server.
   */
  get stderr(): NodeJS.ReadableStream | null {
    return this.child?.stderr ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, [...(this.params.args ?? [])], {
        env: { ...getDefaultEnvironment(), ...this.params.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        ...(this.params.cwd ? { cwd: this.params.cwd } : {}),
        // A new process group (and session): the whole tree can be signalled at once.
        detached: true,
      });
      this.child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) trackGroup(child.pid);
        resolve();
      });
      child.once('close', () => {
        this.markClosed();
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.on('data', (chunk: Buffer) => this.params.onStderr?.(String(chunk)));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closing) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Closes stdin, then ends the process group (TERM, KILL after the grace period); resolves when no member is left. */
  close(): Promise<void> {
    this.closing ??= this.end();
    return this.closing;
  }

  private async end(): Promise<void> {
    const child = this.child;
    const pgid = child?.pid;
    this.chunks = [];
    if (!child || pgid === undefined) return;
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    await waitFor(() => groupMembers(pgid).length === 0, this.params.graceMs);
    await endProcessGroup(pgid, this.params.graceMs);
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  private take(part: Buffer): void {
    this.lineBytes += part.length;
    if (this.oversized) {
      this.oversized.tail = (this.oversized.tail + part.toString('utf8', Math.max(0, part.length - KEEP))).slice(-KEEP);
      return;
    }
    this.chunks.push(part);
    if (this.lineBytes > this.limit) {
      const text = Buffer.concat(this.chunks);
      this.oversized = {
        head: text.toString('utf8', 0, KEEP),
        tail: text.toString('utf8', Math.max(0, text.length - KEEP)),
      };
      this.chunks = [];
    }
  }

  private endLine(): void {
    const size = this.lineBytes;
    const oversized = this.oversized;
    const line = oversized ? '' : Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.lineBytes = 0;
    this.oversized = undefined;
    if (oversized) return this.tooLarge(oversized, size);
    if (!line.trim()) return;
    this.deliver(() => deserializeMessage(line));
  }

  /** Answers the request the oversized message belonged to with an error naming the limit and the size. */
  private tooLarge({ head, tail }: { head: string; tail: string }, size: number): void {
    const message = `the server sent a message of ${size} bytes, over the ${this.limit}-byte limit of the MCP stdio transport`;
    const id = requestId(head, tail);
    if (id === undefined) return this.onerror?.(new Error(message));
    this.deliver(() => ({
      jsonrpc: '2.0',
      id,
      error: {
        code: ProtocolErrorCode.InternalError,
        message,
        data: { reason: MESSAGE_TOO_LARGE, size, limit: this.limit },
      },
    }));
  }

  /**
   * Hands `read()`'s message to `onmessage`: the first at once, each next one a microtask later, after what the one
   * before queued (the SDK's notification dispatch). A line that is not JSON-RPC goes to `onerror`, in its turn.
   */
  private deliver(read: () => JSONRPCMessage): void {
    this.inbox.push(read);
    if (this.delivering) return;
    this.delivering = true;
    const next = (): void => {
      const take = this.inbox.shift();
      if (!take) {
        this.delivering = false;
        return;
      }
      try {
        this.onmessage?.(take());
      } catch (error) {
        this.onerror?.(error as Error);
      }
      queueMicrotask(next);
    };
    next();
  }
}

/** The JSON-RPC id of a message from its ends: `…,"id":3}` (SDK servers) or `{"jsonrpc":"2.0","id":3,…` (most others). */
function requestId(head: string, tail: string): string | number | undefined {
  const match =
    /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail) ??
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head);
  return match?.[1] === undefined ? undefined : (JSON.parse(match[1]) as string | number);
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
}

/**
 * The `process` tool over this agent's background sessions. `poll` returns
 * the output since the last poll (and the exit status once done); a silent
 * running session polls the same answer every time, which is what loop
 * detection's `knownPollNoProgress` recognizes.
 */
import {
  ErrorCode,
  ToolArgumentsError,
  ToolSearchError,
  type ExecuteContext,
  type ToolResult,
} from '@tool-search/kernel';
import { agentKey } from './exec.js';
import { tail } from './output.js';
import type { ExecSession } from './session.js';
import type { SessionOwners } from './owners.js';
import type { SessionStore } from './store.js';

export const PROCESS_ID = 'core:core:process';
/** Lines `process log` returns without `offset` and `limit`. */
export const LOG_DEFAULT_LINES = 200;

export interface ProcessArgs {
  readonly action: 'list' | 'poll' | 'log' | 'write' | 'kill' | 'clear' | 'remove';
  readonly sessionId?: string;
  readonly data?: string;
  readonly eof?: boolean;
  readonly offset?: number;
  readonly limit?: number;
}

export async function runProcess(
  args: ProcessArgs,
  ctx: ExecuteContext,
  store: SessionStore,
  owners: SessionOwners,
): Promise<ToolResult> {
  const agent = agentKey(ctx.run);
  if (args.action === 'list') {
    const sessions = store.list(agent).map(summary);
    const elsewhere = await owners.others(agent, new Set(sessions.map((s) => s.sessionId)));
    const lines = [
      ...sessions.map(
        (s) => `${s.sessionId} ${s.status}${s.exitCode !== null ? ` (exit ${s.exitCode})` : ''} ${s.name}`,
      ),
      ...elsewhere.map((s) => `${s.sessionId} on replica ${s.replica} (process calls for it must reach that replica)`),
    ];
    return result(lines.length ? lines.join('\n') : 'No background sessions.', {
      sessions,
      ...(elsewhere.length ? { elsewhere } : {}),
    });
  }
  if (!args.sessionId)
    throw new ToolArgumentsError(PROCESS_ID, [
      { path: '/sessionId', rule: 'required', message: `is required for action "${args.action}"` },
    ]);
  if (!store.has(agent, args.sessionId))
    throw (await owners.elsewhere(agent, args.sessionId)) ?? store.unknown(args.sessionId);
  const session = store.get(agent, args.sessionId);
  switch (args.action) {
    case 'poll': {
      const output = tail(session.output.since(session.pollCursor));
      session.pollCursor = session.output.total;
      const status = statusOf(session);
      const head = session.running
        ? `Session ${session.id} is still running.`
        : `Session ${session.id} ${describeEnd(session)}.`;
      return result(`${head}${output ? `\n${output}` : ' No new output.'}`, { ...status, output });
    }
    case 'log': {
      const lines = session.output.text().split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const start = args.offset ?? Math.max(0, lines.length - (args.limit ?? LOG_DEFAULT_LINES));
      const end =
        args.offset !== undefined && args.limit === undefined
          ? lines.length
          : start + (args.limit ?? LOG_DEFAULT_LINES);
      const slice = lines.slice(start, end);
      const note = session.output.droppedChars
        ? `[the oldest ${session.output.droppedChars} characters were dropped; lines count from what is kept]\n`
        : '';
      return result(`${note}${tail(slice.join('\n'))}`, {
        ...statusOf(session),
        offset: start,
        lines: slice.length,
        totalLines: lines.length,
      });
    }
    case 'write': {
      if (args.data === undefined && !args.eof)
        throw new ToolArgumentsError(PROCESS_ID, [
          { path: '/data', rule: 'required', message: 'is required for action "write" (or eof: true)' },
        ]);
      const written = session.write(args.data ?? '', args.eof === true);
      return result(
        written
          ? `Wrote ${(args.data ?? '').length} characters to session ${session.id}${args.eof ? ' and closed stdin' : ''}.`
          : `Session ${session.id} no longer reads stdin.`,
        {
          ...statusOf(session),
          written,
        },
      );
    }
    case 'kill':
      await session.stop('killed');
      return result(`Session ${session.id} ${describeEnd(session)}.`, statusOf(session));
    case 'clear':
      if (session.running) {
        throw new ToolSearchError(
          ErrorCode.TOOL_EXECUTION_FAILED,
          `Session ${session.id} is still running; kill it first or use action "remove"`,
          { details: { sessionId: session.id } },
        );
      }
      store.delete(agent, session.id);
      await owners.release(agent, session.id);
      return result(`Cleared session ${session.id}.`, { sessionId: session.id, cleared: true });
    case 'remove':
      if (session.running) await session.stop('killed');
      store.delete(agent, session.id);
      await owners.release(agent, session.id);
      return result(`Removed session ${session.id}.`, { sessionId: session.id, removed: true });
  }
}

function statusOf(session: ExecSession) {
  return {
    sessionId: session.id,
    status: session.status,
    exitCode: session.exitCode,
    ...(session.signal ? { signal: session.signal } : {}),
    ...(session.limit ? { limit: session.limit } : {}),
  };
}

function summary(session: ExecSession) {
  return {
    ...statusOf(session),
    name: session.command.trim().split(/\s+/).slice(0, 2).join(' ').slice(0, 80),
    command: session.command.slice(0, 200),
  };
}

function describeEnd(session: ExecSession): string {
  if (session.status === 'timeout') return 'was killed at its timeout';
  if (session.status === 'killed') return 'was killed';
  if (session.status === 'failed') return `could not start (${session.error})`;
  const end = session.exitCode !== null ? `exited with code ${session.exitCode}` : `ended by ${session.signal}`;
  return session.limit ? `${end}; ${session.limit.message}` : end;
}

function result(text: string, structuredContent: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent };
}

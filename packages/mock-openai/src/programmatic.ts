/**
 * Programmatic tool calling on `POST /v1/responses`, as the mock serves it: when the request offers the
 * `programmatic_tool_calling` tool and the function the script calls lists `programmatic` in its `allowed_callers`,
 * the call comes from a program: a `program` item (`call_id`, the JavaScript `code`, an opaque `fingerprint`) and a
 * `function_call` item with `caller: { type: "program", caller_id: <the program's call_id> }`. The client sends the
 * program item back as it came (the fingerprint is checked) with the `function_call_output`; once the model is done,
 * a `program_output` item (the last output as `result`, `status: "completed"`) leads the answer.
 */
import { createHash } from 'node:crypto';
import type { Step } from './types.js';

export const PROGRAMMATIC_TOOL = 'programmatic_tool_calling';

type Item = Record<string, unknown>;
interface ResponsesBody {
  readonly input: unknown;
  readonly tools?: unknown;
}

/** Why the request cannot go on with its program (a 400, as the API would answer), or undefined. */
export function programError(body: ResponsesBody): string | undefined {
  for (const item of items(body).filter((i) => i.type === 'program')) {
    if (item.fingerprint !== fingerprintOf(String(item.call_id), String(item.code)))
      return `program ${String(item.call_id)}: the fingerprint must be sent back as it came`;
  }
  const programs = new Set(items(body).flatMap((i) => (i.type === 'program' ? [i.call_id] : [])));
  const orphan = items(body).find(
    (i) => i.type === 'function_call' && callerOf(i) !== undefined && !programs.has(callerOf(i)),
  );
  return orphan
    ? `function_call ${String(orphan.call_id)}: its program item (${String(callerOf(orphan))}) must be sent back too`
    : undefined;
}

/** The response's output items with the program around the step (as they are without the programmatic tool). */
export function withProgram(body: ResponsesBody, step: Step, output: readonly Item[], id: string): Item[] {
  const open = openProgram(body);
  if (step.kind === 'tool-call' && offered(body) && sandboxMayCall(body, step.name)) {
    const callId = typeof open?.call_id === 'string' ? open.call_id : `call_prog_${id}`;
    const code = `text(JSON.stringify(await tools.${step.name}(${JSON.stringify(step.args)})));`;
    const program = {
      type: 'program',
      id: `prog_${id}`,
      call_id: callId,
      code,
      fingerprint: fingerprintOf(callId, code),
    };
    const calls = output.map((item) =>
      item.type === 'function_call' ? { ...item, caller: { type: 'program', caller_id: callId } } : item,
    );
    return open ? calls : [program, ...calls];
  }
  if (!open) return [...output];
  const done = {
    type: 'program_output',
    id: `po_${id}`,
    call_id: open.call_id,
    result: lastOutput(body),
    status: 'completed',
  };
  return [done, ...output];
}

function items(body: ResponsesBody): Item[] {
  return Array.isArray(body.input) ? (body.input as Item[]).filter((i) => typeof i === 'object' && i !== null) : [];
}

function offered(body: ResponsesBody): boolean {
  return Array.isArray(body.tools) && (body.tools as Item[]).some((tool) => tool?.type === PROGRAMMATIC_TOOL);
}

function sandboxMayCall(body: ResponsesBody, name: string): boolean {
  const tool = (body.tools as Item[]).find((t) => t?.type === 'function' && t.name === name);
  return Array.isArray(tool?.allowed_callers) && tool.allowed_callers.includes('programmatic');
}

function callerOf(item: Item): unknown {
  const caller = item.caller as { type?: unknown; caller_id?: unknown } | undefined;
  return caller?.type === 'program' ? caller.caller_id : undefined;
}

/** The latest program with no `program_output` yet: still running. */
function openProgram(body: ResponsesBody): Item | undefined {
  const finished = new Set(items(body).flatMap((i) => (i.type === 'program_output' ? [i.call_id] : [])));
  return items(body)
    .filter((i) => i.type === 'program' && !finished.has(i.call_id))
    .pop();
}

function lastOutput(body: ResponsesBody): string {
  const output = items(body)
    .filter((i) => i.type === 'function_call_output')
    .pop()?.output;
  return typeof output === 'string' ? output : JSON.stringify(output ?? '');
}

function fingerprintOf(callId: string, code: string): string {
  return `fp_${createHash('sha256').update(`${callId}\n${code}`).digest('hex').slice(0, 24)}`;
}

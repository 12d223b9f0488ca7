/**
 * Programmatic tool calling, as the mock serves it: when the request offers the code-execution tool
 * (`code_execution_20250825` or `code_execution_20260120`) and the tool the script calls lists that version in its
 * `allowed_callers`, the call comes from the sandbox: a `server_tool_use` block (`name: "code_execution"`, the code)
 * opens the program, the `tool_use` block carries `caller: { type: <version>, tool_id: <that id> }`, and the message
 * names its `container`. The client answers with `tool_result` blocks only, passing `container` back; once the
 * model is done the program's `code_execution_tool_result` (the last result as stdout) leads the answer.
 */
import type { Step } from '@tool-search/mock-openai';
import type { ContentBlock, MessagesRequest } from './types.js';

export const CODE_EXECUTION_TYPES: readonly string[] = ['code_execution_20250825', 'code_execution_20260120'];

type Block = ContentBlock & Record<string, unknown>;

interface OpenProgram {
  /** The code execution's `server_tool_use` id (the callers' `tool_id`). */
  readonly id: string;
  readonly version: string;
}

export interface ProgrammaticPlan {
  /** Blocks before the step's own: the program's start, or its result once the model answers. */
  readonly lead: readonly object[];
  /** The `caller` of the step's `tool_use` block. */
  readonly caller?: { readonly type: string; readonly tool_id: string };
  readonly container?: { readonly id: string; readonly expires_at: string };
}

/** The offered code-execution tool's version, if any. */
export function codeExecutionOf(request: MessagesRequest): string | undefined {
  return (request.tools ?? []).find((tool) => CODE_EXECUTION_TYPES.includes(String(tool.type)))?.type;
}

/** Why the request cannot go on with its program (answered like the API: a 400), or undefined. */
export function programmaticError(request: MessagesRequest): string | undefined {
  const open = openProgram(request);
  if (!open) return undefined;
  const last = request.messages[request.messages.length - 1];
  const blocks = Array.isArray(last?.content) ? (last.content as Block[]) : [];
  if (last?.role === 'user' && blocks.some((b) => b.type !== 'tool_result'))
    return 'a user message answering programmatic tool calls must contain only tool_result blocks';
  if (request.container !== containerId(open.id))
    return `container: pass the container of the code execution (${containerId(open.id)}) to go on with its program`;
  return undefined;
}

/** The program's blocks around the planned step (none without the code-execution tool). */
export function programmaticPlan(request: MessagesRequest, step: Step, counter: number): ProgrammaticPlan {
  const version = codeExecutionOf(request);
  const open = openProgram(request);
  if (version && step.kind === 'tool-call' && sandboxMayCall(request, step.name, version)) {
    const id = open?.id ?? `srvtoolu_mock_${counter}_code`;
    const start = open
      ? []
      : [
          {
            type: 'server_tool_use',
            id,
            name: 'code_execution',
            input: { code: `result = await ${step.name}(${JSON.stringify(step.args)})\nprint(result)` },
          },
        ];
    return {
      lead: start,
      caller: { type: open?.version ?? version, tool_id: id },
      container: { id: containerId(id), expires_at: new Date(0).toISOString() },
    };
  }
  if (!open) return { lead: [] };
  const done = {
    type: 'code_execution_tool_result',
    tool_use_id: open.id,
    content: {
      type: 'code_execution_result',
      stdout: lastResultText(request),
      stderr: '',
      return_code: 0,
      content: [],
    },
  };
  return { lead: [done], container: { id: containerId(open.id), expires_at: new Date(0).toISOString() } };
}

function sandboxMayCall(request: MessagesRequest, name: string, version: string): boolean {
  const tool = (request.tools ?? []).find((t) => t.name === name);
  return Array.isArray(tool?.allowed_callers) && tool.allowed_callers.includes(version);
}

/** The latest code execution with no `code_execution_tool_result` yet: a program still running. */
function openProgram(request: MessagesRequest): OpenProgram | undefined {
  const blocks = request.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []));
  const finished = new Set(blocks.filter((b) => b.type === 'code_execution_tool_result').map((b) => b.tool_use_id));
  const started = blocks.filter(
    (b) => b.type === 'server_tool_use' && b.name === 'code_execution' && !finished.has(b.id),
  );
  const last = started[started.length - 1];
  if (!last) return undefined;
  const caller = blocks.find((b) => b.type === 'tool_use' && (b.caller as { tool_id?: unknown })?.tool_id === last.id)
    ?.caller as { type?: unknown } | undefined;
  return { id: String(last.id), version: typeof caller?.type === 'string' ? caller.type : CODE_EXECUTION_TYPES[0]! };
}

function containerId(programId: string): string {
  return `container_mock_${programId}`;
}

function lastResultText(request: MessagesRequest): string {
  const last = request.messages[request.messages.length - 1];
  const blocks = Array.isArray(last?.content) ? (last.content as Block[]) : [];
  const result = [...blocks].reverse().find((b) => b.type === 'tool_result');
  const content = result?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part) => String((part as { text?: unknown }).text ?? '')).join('') : '';
}

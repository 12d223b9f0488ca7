import { describe, expect, it } from 'vitest';
import { codeFor, collectHits, failedResult, isNameFor, planNextStep } from '@tool-search/mock-openai';
import {
  ASK,
  TARGET,
  callTool,
  called,
  codeTool,
  fn,
  request,
  result,
  searchResult,
  searchTool,
  system,
  user,
} from './fixtures.js';

describe('planNextStep: lanes', () => {
  it('direct: calls the offered target by name', () => {
    const step = planNextStep(request([user(`${ASK} args={"q":"x"}`)], [fn('other'), fn(TARGET)]));
    expect(step).toMatchObject({ kind: 'tool-call', lane: 'direct', name: TARGET, args: { q: 'x' } });
  });

  it('direct: calls the provider-safe form of a mapped name', () => {
    const step = planNextStep(
      request([user('tool search qa check target=mcp.files/read')], [fn('mcp_files_read_1a2b3c4d')]),
    );
    expect(step).toMatchObject({ kind: 'tool-call', lane: 'direct', name: 'mcp_files_read_1a2b3c4d' });
  });

  it('code: writes code that searches for the target and calls the hit', () => {
    const step = planNextStep(request([user(ASK)], [codeTool, searchTool]));
    expect(step).toMatchObject({ kind: 'tool-call', lane: 'code', name: 'tool_search_code' });
    const code = step.kind === 'tool-call' ? String(step.args.code) : '';
    expect(code).toContain(`api.search("${TARGET}")`);
    expect(code).toContain('api.call(hit.id, {})');
  });

  it('code: uses the required string property when there is no `code`', () => {
    const step = planNextStep(
      request([user(ASK)], [fn('tool_search_code', { source: { type: 'string' } }, ['source'])]),
    );
    expect(step).toMatchObject({ args: { source: expect.stringContaining('api.search') } });
  });

  it('tools: searches first', () => {
    const step = planNextStep(request([user(ASK)], [searchTool, callTool]));
    expect(step).toMatchObject({ kind: 'tool-call', lane: 'tools', name: 'tool_search', args: { query: TARGET } });
  });

  it('tools: then calls tool_call with the matching hit id and the args', () => {
    const messages = [
      user(`${ASK} args={"n":1}`),
      called('c1', 'tool_search', { query: TARGET }),
      result('c1', searchResult),
    ];
    const step = planNextStep(request(messages, [searchTool, callTool]));
    expect(step).toMatchObject({
      kind: 'tool-call',
      lane: 'tools',
      name: 'tool_call',
      args: { id: `plugin:fake:${TARGET}`, args: { n: 1 } },
    });
  });

  it('tools: finds hits inside a serialized tool result', () => {
    const wrapped = JSON.stringify({ content: [{ type: 'text', text: searchResult }] });
    const messages = [user(ASK), called('c1', 'tool_search', { query: TARGET }), result('c1', wrapped)];
    expect(planNextStep(request(messages, [searchTool, callTool]))).toMatchObject({
      args: { id: `plugin:fake:${TARGET}` },
    });
  });

  it('tools: answers when the search found nothing', () => {
    const messages = [
      user(ASK),
      called('c1', 'tool_search', { query: TARGET }),
      result('c1', '{"query":"x","hits":[],"truncated":false}'),
    ];
    expect(planNextStep(request(messages, [searchTool, callTool]))).toMatchObject({
      kind: 'answer',
      reason: 'not-found',
    });
  });

  it('directory: calls the hidden name listed in the system prompt', () => {
    const step = planNextStep(
      request(
        [system(`Tools you can call by name: ${TARGET}, fake_plugin_tool_0018`), user(ASK)],
        [searchTool, callTool],
      ),
    );
    expect(step).toMatchObject({ kind: 'tool-call', lane: 'directory', name: TARGET });
  });

  it('directory: reads a `- name: description` directory row', () => {
    const step = planNextStep(
      request([system(`Tool directory:\n[fake]\n- ${TARGET}: Does things`), user(ASK)], [searchTool, callTool]),
    );
    expect(step).toMatchObject({ lane: 'directory', name: TARGET });
  });

  it('directory: does not match the name inside an id', () => {
    const step = planNextStep(request([system(`- plugin:fake:${TARGET}`), user(ASK)], [searchTool, callTool]));
    expect(step).toMatchObject({ lane: 'tools' });
  });

  it('directory: does not match a longer name that contains the target', () => {
    const step = planNextStep(request([system(`Tools: ${TARGET}9`), user(ASK)], [searchTool, callTool]));
    expect(step).toMatchObject({ lane: 'tools', name: 'tool_search' });
  });
});

describe('planNextStep: answers', () => {
  it('answers quoting the result once the target ran', () => {
    const messages = [user(ASK), called('c1', TARGET, {}), result('c1', 'FAKE_TOOL_OK fake_plugin_tool_0017 {}')];
    const step = planNextStep(request(messages, [fn(TARGET)]));
    expect(step).toMatchObject({
      kind: 'answer',
      reason: 'done',
      text: expect.stringContaining('FAKE_TOOL_OK fake_plugin_tool_0017'),
    });
  });

  it('answers with the failure instead of retrying forever', () => {
    const messages = [user(ASK), called('c1', TARGET, {}), result('c1', '{"error":{"code":"TOOL_CALL_BLOCKED"}}')];
    expect(planNextStep(request(messages, [fn(TARGET)]))).toMatchObject({ kind: 'answer', reason: 'failed' });
  });

  it('loop=N keeps calling with the same args until N calls were made', () => {
    const ask = `${ASK} loop=3 args={"a":1}`;
    const first = [user(ask), called('c1', TARGET, { a: 1 }), result('c1', 'FAKE_TOOL_OK')];
    expect(planNextStep(request(first, [fn(TARGET)]))).toMatchObject({
      kind: 'tool-call',
      name: TARGET,
      args: { a: 1 },
    });
    const third = [
      ...first,
      called('c2', TARGET, { a: 1 }),
      result('c2', 'FAKE_TOOL_OK'),
      called('c3', TARGET, { a: 1 }),
      result('c3', 'FAKE_TOOL_OK'),
    ];
    expect(planNextStep(request(third, [fn(TARGET)]))).toMatchObject({ kind: 'answer', reason: 'done' });
  });

  it('only looks at the turn after the last user message', () => {
    const messages = [
      user(ASK),
      called('c1', TARGET, {}),
      result('c1', 'FAKE_TOOL_OK'),
      { role: 'assistant', content: 'done' },
      user(ASK),
    ];
    expect(planNextStep(request(messages, [fn(TARGET)]))).toMatchObject({ kind: 'tool-call', name: TARGET });
  });

  it('gives a plain reply without a script', () => {
    expect(planNextStep(request([user('hello')], [fn(TARGET)]))).toMatchObject({ kind: 'answer', reason: 'no-script' });
  });

  it('search (deferred loading): searches with query="…" when only a search tool is offered', () => {
    const step = planNextStep(
      request([user(`${ASK} query="send an \\"update\\" to the team"`)], [searchTool, fn('read')]),
    );
    expect(step).toMatchObject({
      kind: 'tool-call',
      lane: 'search',
      name: 'tool_search',
      args: { query: 'send an "update" to the team' },
    });
  });

  it('search (deferred loading): calls the target once the search made it available', () => {
    const messages = [
      user(`${ASK} args={"q":"x"}`),
      called('c1', 'tool_search', { query: TARGET }),
      result('c1', '{"tools":[{"name":"fake_plugin_tool_0017"}]}'),
    ];
    expect(planNextStep(request(messages, [searchTool, fn(TARGET)]))).toMatchObject({
      kind: 'tool-call',
      lane: 'direct',
      name: TARGET,
      args: { q: 'x' },
    });
  });

  it('search (deferred loading): answers not-found when the search did not make the target available', () => {
    const messages = [user(ASK), called('c1', 'tool_search', { query: TARGET }), result('c1', '{"tools":[]}')];
    expect(planNextStep(request(messages, [searchTool]))).toMatchObject({ kind: 'answer', reason: 'not-found' });
  });

  it('query="…" is what the tools and code lanes search for', () => {
    expect(planNextStep(request([user(`${ASK} query="post a message"`)], [searchTool, callTool]))).toMatchObject({
      args: { query: 'post a message' },
    });
    const code = planNextStep(request([user(`${ASK} query="post a message"`)], [codeTool]));
    expect(code.kind === 'tool-call' ? String(code.args.code) : '').toContain('api.search("post a message")');
  });

  it('says so when no offered tool reaches the target', () => {
    expect(planNextStep(request([user(ASK)], [fn('other')]))).toMatchObject({ kind: 'answer', reason: 'unreachable' });
  });
});

describe('helpers', () => {
  it('isNameFor accepts only the exact name for provider-valid names', () => {
    expect(isNameFor(TARGET, TARGET)).toBe(true);
    expect(isNameFor(`${TARGET}_1a2b3c4d`, TARGET)).toBe(false);
  });

  it('codeFor is runnable JavaScript against a search/call API', async () => {
    const code = codeFor({ target: TARGET, args: { n: 2 }, loop: 1 });
    const tools = {
      search: async (q: string) =>
        Object.assign(
          [
            { id: 'a', name: 'other' },
            { id: `id:${q}`, name: q },
          ],
          { query: q, truncated: false },
        ),
      call: async (id: string, args: unknown) => ({ id, args }),
    };
    const run = new Function('tools', `return (async () => {\n${code}\n})();`) as (t: typeof tools) => Promise<unknown>;
    await expect(run(tools)).resolves.toEqual({ id: `id:${TARGET}`, args: { n: 2 } });
  });
});

describe('collectHits', () => {
  it('reads ids from the text rendering of a search result', () => {
    const text =
      '- plugin:fake:fake_plugin_tool_0018 ({}) Other\n- plugin:fake:fake_plugin_tool_0017 ({ q?: string }) Target\n(more tools matched)';
    expect(collectHits(text)).toEqual([
      { id: 'plugin:fake:fake_plugin_tool_0018', name: 'fake_plugin_tool_0018' },
      { id: 'plugin:fake:fake_plugin_tool_0017', name: 'fake_plugin_tool_0017' },
    ]);
  });

  it('keeps colons inside a tool name', () => {
    expect(collectHits('- mcp:files:read:all (x) y')).toEqual([{ id: 'mcp:files:read:all', name: 'read:all' }]);
  });

  it('tools lane: calls the target found in a text search result', () => {
    const text = `- plugin:fake:fake_plugin_tool_0018 ({}) Other\n- plugin:fake:${TARGET} ({}) Target`;
    const messages = [user(ASK), called('c1', 'tool_search', { query: TARGET }), result('c1', text)];
    expect(planNextStep(request(messages, [searchTool, callTool]))).toMatchObject({
      name: 'tool_call',
      args: { id: `plugin:fake:${TARGET}` },
    });
  });
});

describe('planNextStep: a real tool that answered', () => {
  it('answers with the result of a call that succeeded without the fake marker (not "did not succeed")', () => {
    const messages = [
      user('tool search qa check target=get-sum args={"a":3,"b":4}'),
      called('c1', 'get-sum', { a: 3, b: 4 }),
      result('c1', 'The sum of 3 and 4 is 7.'),
    ];
    const step = planNextStep(request(messages, [fn('get-sum')]));
    expect(step).toMatchObject({ kind: 'answer', reason: 'done', text: 'get-sum answered: The sum of 3 and 4 is 7.' });
  });

  it('still reports a failed call as failed: error text, blocked text, code that returned ok: false', () => {
    for (const text of [
      'Error TOOL_ARGUMENTS_INVALID: path is required',
      'Blocked (approvals): denied',
      '{"ok":false,"error":{"code":"CODE_FAILED","message":"x"}}',
    ]) {
      const messages = [user('tool search qa check target=get-sum'), called('c1', 'get-sum', {}), result('c1', text)];
      expect(planNextStep(request(messages, [fn('get-sum')]))).toMatchObject({ kind: 'answer', reason: 'failed' });
    }
  });
});

describe('failedResult', () => {
  it('reads errors from text and JSON, and plain answers as success', () => {
    expect(failedResult('Error: boom')).toBe(true);
    expect(failedResult('{"ok":true,"value":{"error":"no hit for x"}}')).toBe(true);
    expect(failedResult('{"ok":true,"value":7}')).toBe(false);
    expect(failedResult('The sum of 3 and 4 is 7.')).toBe(false);
  });
});

describe('deferred lane (a gateway offering Anthropic tool search as a function)', () => {
  it('searches with the query, then calls the target once it is offered, then answers', () => {
    const searchFn = fn('tool_search_tool_bm25', { query: { type: 'string' } }, ['query']);
    const first = planNextStep(request([user(ASK)], [fn('Read'), searchFn]));
    expect(first).toMatchObject({
      kind: 'tool-call',
      lane: 'deferred',
      name: 'tool_search_tool_bm25',
      args: { query: TARGET },
    });
    const searched = [
      user(ASK),
      called('c1', 'tool_search_tool_bm25', { query: TARGET }),
      result('c1', `Loaded: ${TARGET}`),
    ];
    expect(planNextStep(request(searched, [fn('Read'), searchFn, fn(TARGET)]))).toMatchObject({
      kind: 'tool-call',
      lane: 'direct',
      name: TARGET,
    });
    expect(planNextStep(request(searched, [fn('Read'), searchFn]))).toMatchObject({
      kind: 'answer',
      reason: 'not-found',
    });
    const ran = [...searched, called('c2', TARGET, {}), result('c2', 'FAKE_TOOL_OK')];
    expect(planNextStep(request(ran, [fn('Read'), searchFn, fn(TARGET)]))).toMatchObject({
      kind: 'answer',
      reason: 'done',
    });
  });
});

describe("deferred lane with a client's own search tool (searchTool=…, Anthropic custom tool search)", () => {
  const ask = `${ASK} searchTool=find_tools`;
  it('calls the named search tool, then the target once a tool_reference loaded it, then answers', () => {
    const first = planNextStep(request([user(ask)], [fn('Read'), fn('find_tools', { query: { type: 'string' } })]));
    expect(first).toMatchObject({ kind: 'tool-call', lane: 'deferred', name: 'find_tools', args: { query: TARGET } });
    // The search's result is not the target's answer, however it reads.
    const searched = [
      user(ask),
      called('c1', 'find_tools', { query: TARGET }),
      result('c1', `[{"type":"tool_reference","tool_name":"${TARGET}"}]`),
    ];
    expect(planNextStep(request(searched, [fn('Read'), fn('find_tools'), fn(TARGET)]))).toMatchObject({
      kind: 'tool-call',
      lane: 'direct',
      name: TARGET,
    });
    expect(planNextStep(request(searched, [fn('Read'), fn('find_tools')]))).toMatchObject({
      kind: 'answer',
      reason: 'not-found',
    });
    const ran = [...searched, called('c2', TARGET, {}), result('c2', 'FAKE_TOOL_OK')];
    expect(planNextStep(request(ran, [fn('Read'), fn('find_tools'), fn(TARGET)]))).toMatchObject({
      kind: 'answer',
      reason: 'done',
    });
  });

  it('ignores searchTool= when no offered tool has that name', () => {
    expect(planNextStep(request([user(ask)], [fn('Read')]))).toMatchObject({ kind: 'answer', reason: 'unreachable' });
  });
});

describe('planNextStep: early=1 (a call before the load)', () => {
  const early = `${ASK} args={"q":"x"} early=1`;

  it('calls the target by name although it is not offered', () => {
    const step = planNextStep(request([user(early)], [searchTool, callTool]));
    expect(step).toMatchObject({ kind: 'tool-call', lane: 'unloaded', name: TARGET, args: { q: 'x' } });
  });

  it('then calls it directly once it is offered; the early call is not an attempt', () => {
    const messages = [user(early), called('c1', TARGET, { q: 'x' }), result('c1', 'Error TOOL_NOT_LOADED: …')];
    const step = planNextStep(request(messages, [searchTool, callTool, fn(TARGET)]));
    expect(step).toMatchObject({ kind: 'tool-call', lane: 'direct', name: TARGET, args: { q: 'x' } });
  });

  it('goes on by search when the target is still not offered', () => {
    const messages = [user(early), called('c1', TARGET, {}), result('c1', 'Error UNKNOWN_TOOL: …')];
    expect(planNextStep(request(messages, [searchTool, callTool]))).toMatchObject({
      lane: 'tools',
      name: 'tool_search',
    });
  });

  it("follows a hint that names the tool_call to make (an adapter's tools mode), without a search", () => {
    const hint = `Error TOOL_NOT_LOADED: ${TARGET} was not loaded; its schema is below; call it through tool_call as {"id":"plugin:fake:${TARGET}","args":{...}}.\n{}`;
    const messages = [user(early), called('c1', TARGET, { q: 'x' }), result('c1', hint)];
    expect(planNextStep(request(messages, [searchTool, callTool]))).toMatchObject({
      lane: 'tools',
      name: 'tool_call',
      args: { id: `plugin:fake:${TARGET}`, args: { q: 'x' } },
    });
    // The hinted call failed: that was the attempt; the model does not retry by the hint.
    const failed = [...messages, called('c2', 'tool_call', {}), result('c2', 'Error UNKNOWN_TOOL: …')];
    expect(planNextStep(request(failed, [searchTool, callTool]))).toMatchObject({ kind: 'answer', reason: 'failed' });
  });
});

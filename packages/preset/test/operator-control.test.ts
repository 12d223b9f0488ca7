import { describe, expect, it } from 'vitest';
import { ConfigError, ErrorCode, type RunExposure } from '@tool-search/kernel';
import { SEARCH_MODES } from '@tool-search/config';
import { createToolSearchKernel, openToolSearchRun } from '@tool-search/preset';

// Issue #33, operator control: what the operator says about the catalog reaches the model in every search mode.
const OPERATOR =
  'This catalog holds the Acme ticketing and billing tools: search it before saying you cannot file a ticket or refund an order.';
const AGENT = 'Ops agent: search for the paging and runbook tools first.';
const SEARCH_TOOL: Record<string, string> = {
  tools: 'tool_search',
  directory: 'tool_search',
  code: 'tool_search_code',
};

function searchDescription(exposure: RunExposure, mode: string): string {
  const tool = exposure.tools.find((t) => t.name === SEARCH_TOOL[mode]);
  expect(tool, `${mode} mode shows ${SEARCH_TOOL[mode]}`).toBeDefined();
  return tool!.description;
}

describe('tools.toolSearch.description', () => {
  it('is appended to the search tool of every mode (tools, directory, code), after the built-in text', async () => {
    const plain = await createToolSearchKernel({ plugins: { 'fake-catalog': { tools: 5 } } });
    const extended = await createToolSearchKernel({
      plugins: { 'fake-catalog': { tools: 5 } },
      tools: { toolSearch: { mode: 'tools', description: `  ${OPERATOR}\n` } },
    });
    expect(extended.toolSearch.description).toBe(OPERATOR);
    try {
      const [before, after] = [await plain.kernel.createRun(), await extended.kernel.createRun()];
      for (const mode of SEARCH_MODES) {
        const base = searchDescription(await before.exposure(mode), mode);
        expect(base).not.toContain('Acme');
        expect(searchDescription(await after.exposure(mode), mode)).toBe(`${base}\n\n${OPERATOR}`);
      }
    } finally {
      await Promise.all([plain.kernel.close(), extended.kernel.close()]);
    }
  });

  it("an agent's agents.list[].tools.toolSearch.description replaces the base one for that agent's runs", async () => {
    const config = {
      plugins: { 'fake-catalog': { tools: 5 } },
      tools: { toolSearch: { mode: 'code' as const, description: OPERATOR } },
      agents: { list: [{ id: 'ops', tools: { toolSearch: { description: AGENT } } }, { id: 'writer' }] },
    };
    for (const [agentId, wanted, unwanted] of [
      ['ops', AGENT, OPERATOR],
      ['writer', OPERATOR, AGENT],
    ] as const) {
      const opened = await openToolSearchRun({ config, agentId });
      try {
        for (const mode of SEARCH_MODES) {
          const description = searchDescription(await opened.run.exposure(mode), mode);
          expect(description.endsWith(`\n\n${wanted}`), `${agentId} in ${mode} mode`).toBe(true);
          expect(description).not.toContain(unwanted);
        }
      } finally {
        await opened.close();
      }
    }
  });

  it('refuses a description that is not a string or is too long, naming the path, the rule and the fix', async () => {
    const long = {
      plugins: { 'fake-catalog': { tools: 5 } },
      tools: { toolSearch: { description: 'x'.repeat(2001) } },
    };
    const error = await openToolSearchRun({ config: long }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
      path: '/tools/toolSearch/description',
      rule: 'maxLength',
    });
    expect((error as Error).message).toContain('has 2001 characters; shorten it to at most 2000');
    const agent = { agents: { list: [{ id: 'ops', tools: { toolSearch: { description: 42 } } }] } };
    await expect(openToolSearchRun({ config: agent as never })).rejects.toMatchObject({
      path: '/agents/list/0/tools/toolSearch/description',
      rule: 'type',
    });
  });
});

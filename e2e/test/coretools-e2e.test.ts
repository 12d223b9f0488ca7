import { describe, expect, it } from 'vitest';
import { runCodingScenario, runExecApprovalScenario, runPollLoopScenario } from '@tool-search/qa';
import { noteSkipped, systemProgramOnPath } from '@tool-search/testing';

// Every scenario runs commands through exec, which is listed only where bubblewrap runs.
const SANDBOX = systemProgramOnPath('bubblewrap');
if (!SANDBOX) noteSkipped('the core-tools e2e scenarios (each runs exec)', 'bubblewrap');

describe.skipIf(!SANDBOX)('the real core tools end to end, through the gateway', () => {
  it('coding profile: the model reads a file, edits it and runs a command', async () => {
    const result = await runCodingScenario();
    expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
  }, 120_000);

  it('loop detection sees real polls: knownPollNoProgress blocks polling a silent background command', async () => {
    const result = await runPollLoopScenario();
    expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
  }, 120_000);

  it("exec asks the gateway's approver for a command off the allowlist: deny blocks, allow runs", async () => {
    const result = await runExecApprovalScenario();
    expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
  }, 120_000);
});

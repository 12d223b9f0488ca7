import { describe, expect, it } from 'vitest';
import { runApprovalScenario, runLoopScenario } from '@tool-search/qa';

describe('guards end to end, in every mode', () => {
  it('blocks a looping model at the critical threshold', async () => {
    const result = await runLoopScenario();
    expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
  }, 180_000);

  it('denies a call when the approver says no, including from inside tool_search_code', async () => {
    const result = await runApprovalScenario();
    expect(result.assertions.filter((a) => !a.ok)).toEqual([]);
    expect(result.lanes.find((l) => l.lane === 'code')?.approvalOrigins).toContain('code');
  }, 180_000);
});

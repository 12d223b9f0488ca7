/** The per-agent settings cache stays at (configured agents + 1) whatever agent ids requests name; a miss resolves again. */
import { describe, expect, it } from 'vitest';
import { resolveLoopDetection } from '../src/index.js';
import { agentConfigs } from '../src/plugin.js';

const options = {
  tools: { loopDetection: { enabled: false } },
  agents: { list: [{ id: 'strict', tools: { loopDetection: { enabled: true, warningThreshold: 3 } } }] },
};

describe('loop detection settings per agent', () => {
  it('stays at its bound under many made-up agent ids, which resolve like none', () => {
    const configs = agentConfigs(options);
    for (let i = 0; i < 10_000; i++) expect(configs.for(`agent-${i}`)).toEqual(resolveLoopDetection(options));
    expect(configs.for('strict')).toEqual(resolveLoopDetection(options, 'strict'));
    expect(configs.for('strict').enabled).toBe(true);
    expect(configs.for(undefined).enabled).toBe(false);
    expect(configs.size).toBe(2);
  });
});

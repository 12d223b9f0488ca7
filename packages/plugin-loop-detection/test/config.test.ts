import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { DEFAULT_LOOP_DETECTION, loopDetectionPlugin, resolveLoopDetection } from '../src/index.js';

describe('resolveLoopDetection', () => {
  it('defaults to OpenClaw values, disabled, every detector on', () => {
    expect(resolveLoopDetection({})).toEqual({
      enabled: false,
      warningThreshold: 10,
      criticalThreshold: 20,
      globalCircuitBreakerThreshold: 30,
      historySize: 30,
      detectors: { genericRepeat: true, knownPollNoProgress: true, pingPong: true },
    });
  });

  it('merges the agent override field by field and detectors per key', () => {
    const config = resolveLoopDetection(
      {
        tools: { loopDetection: { enabled: true, historySize: 50, detectors: { pingPong: false } } },
        agents: {
          list: [
            {
              id: 'a',
              tools: {
                loopDetection: { warningThreshold: 8, criticalThreshold: 16, detectors: { genericRepeat: false } },
              },
            },
          ],
        },
      },
      'a',
    );
    expect(config).toEqual({
      ...DEFAULT_LOOP_DETECTION,
      enabled: true,
      historySize: 50,
      warningThreshold: 8,
      criticalThreshold: 16,
      detectors: { genericRepeat: false, knownPollNoProgress: true, pingPong: false },
    });
  });

  it('uses the global config for an agent without an override', () => {
    expect(
      resolveLoopDetection({ tools: { loopDetection: { enabled: true } }, agents: { list: [{ id: 'a' }] } }, 'b')
        .enabled,
    ).toBe(true);
  });

  it('rejects thresholds out of order with the path of the agent', () => {
    const settings = { agents: { list: [{ id: 'a', tools: { loopDetection: { criticalThreshold: 40 } } }] } };
    expect(() => resolveLoopDetection(settings, 'a')).toThrow(
      expect.objectContaining({
        code: ErrorCode.CONFIG_INVALID,
        path: 'agents.list.0.tools.loopDetection.globalCircuitBreakerThreshold',
      }),
    );
  });
});

describe('settings checks at plugin creation', () => {
  it('rejects a threshold below 1', () => {
    expect(() => loopDetectionPlugin({ tools: { loopDetection: { warningThreshold: 0 } } })).toThrow(
      expect.objectContaining({
        code: ErrorCode.CONFIG_INVALID,
        path: 'tools.loopDetection.warningThreshold',
        rule: 'minimum',
      }),
    );
  });

  it('rejects an unknown key inside loopDetection (a typo would silently do nothing)', () => {
    expect(() => loopDetectionPlugin({ tools: { loopDetection: { warningTreshold: 5 } as never } })).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID, rule: 'additionalProperties' }),
    );
  });

  it('ignores the rest of the config (other tool settings, other agent fields)', () => {
    expect(() =>
      loopDetectionPlugin({ tools: { allow: ['*'] }, agents: { list: [{ id: 'a', model: 'x' }], defaults: {} } }),
    ).not.toThrow();
  });

  it('checks every agent override when the plugin is created', () => {
    const settings = { agents: { list: [{ id: 'a', tools: { loopDetection: { warningThreshold: 25 } } }] } };
    expect(() => loopDetectionPlugin(settings)).toThrow(expect.objectContaining({ code: ErrorCode.CONFIG_INVALID }));
  });
});

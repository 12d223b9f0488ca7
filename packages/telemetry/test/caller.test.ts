/** `tool-caller`: the gateway marks the run's next call as made by the provider's sandbox; the entry says so. */
import { describe, expect, it } from 'vitest';
import { telemetryPlugin } from '@tool-search/telemetry';
import { kernelWith } from './helpers.js';

describe('caller: programmatic', () => {
  it('marks the next call of the named tool, once; a blocked call too; a marker for another tool marks nothing', async () => {
    const telemetry = telemetryPlugin({ tokenizer: false });
    const run = await kernelWith(telemetry).createRun({ sessionId: 'caller' });
    const id = (name: string) => run.catalog.find((tool) => tool.name === name)!.id;
    run.emit({ type: 'tool-caller', toolId: id('alpha'), caller: 'programmatic' });
    await run.call('alpha', {});
    await run.call('alpha', {});
    run.emit({ type: 'tool-caller', toolId: id('beta'), caller: 'programmatic' });
    await run.call('beta', {});
    run.emit({ type: 'tool-caller', toolId: id('beta'), caller: 'programmatic' });
    await run.call('alpha', {});
    await run.call('beta', {});
    await run.close();
    const calls = telemetry
      .entries('caller')
      .flatMap((e) => (e.type === 'tool-call' ? [[e.name, e.status, e.caller]] : []));
    expect(calls).toEqual([
      ['alpha', 'ok', 'programmatic'],
      ['alpha', 'ok', undefined],
      ['beta', 'blocked', 'programmatic'],
      ['alpha', 'ok', undefined],
      ['beta', 'blocked', undefined],
    ]);
  });
});

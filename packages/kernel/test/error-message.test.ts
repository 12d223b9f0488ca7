import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, errorMessage, type KernelPlugin } from '@tool-search/kernel';
import { source, tool } from './helpers.js';

describe('errorMessage', () => {
  it("gives an Error's message and any other thrown value as text", () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage({ message: 'not an Error' })).toBe('[object Object]');
  });

  it('does not throw on a thrown value that cannot be turned into a string', () => {
    expect(errorMessage(Object.create(null))).toBe('[object Object]');
    const hostile = {
      toString: () => {
        throw new Error('gotcha');
      },
    };
    expect(errorMessage(hostile)).toBe('[object Object]');
  });
});

describe('wrapped errors keep their cause', () => {
  it('arguments that are not JSON data: TOOL_ARGUMENTS_INVALID with the serializer error as cause', async () => {
    const run = await createKernel({ plugins: [source('s', [tool('read')])] }).createRun();
    const error = await run.call('read', { value: 1n }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.TOOL_ARGUMENTS_INVALID });
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('a throwing policy tap: POLICY_FAILED with the thrown error as cause', async () => {
    const thrown = new Error('policy broke');
    const policy: KernelPlugin = {
      name: 'bad-policy',
      apply: ({ hooks }) =>
        hooks.filterPolicy.tap(() => {
          throw thrown;
        }),
    };
    const error = await createKernel({ plugins: [source('s', [tool('read')]), policy] })
      .createRun()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.POLICY_FAILED, cause: thrown });
  });

  it('a throwing mode tap: MATERIALIZE_FAILED with the thrown error as cause', async () => {
    const thrown = new Error('mode broke');
    const mode: KernelPlugin = {
      name: 'bad-mode',
      apply: ({ hooks }) =>
        hooks.materialize.for('x').tap(() => {
          throw thrown;
        }),
    };
    const run = await createKernel({ plugins: [source('s', [tool('read')]), mode] }).createRun();
    const error = await run.exposure('x').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.MATERIALIZE_FAILED, cause: thrown });
  });
});

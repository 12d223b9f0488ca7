import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { cli, smallCatalog } from './helpers.js';

const gated = smallCatalog(3, 'tools: { approvals: { require: ["read"] } }');

/** A fake terminal on stdin that answers `line`. */
function tty(line: string): PassThrough & { isTTY: boolean } {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  stdin.write(`${line}\n`);
  return stdin;
}

describe('interactive approvals (tools call)', () => {
  it('asks "Allow <tool> (<id>) with <args>? [y/N]" and runs the call on "y"', async () => {
    const { code, stdout, stderr } = await cli(['tools', 'call', 'read', '--args', '{"path":"a"}', '--json'], gated, {
      stdin: tty('y'),
    });
    expect(stderr).toContain('Allow read (core:core:read) with {"path":"a"}? [y/N]');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'ok' });
  });

  it('blocks the call on any other answer (exit 1)', async () => {
    const { code, stdout } = await cli(['tools', 'call', 'read', '--args', '{"path":"a"}', '--json'], gated, {
      stdin: tty(''),
    });
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'blocked' });
  });

  it('does not ask for tools that need no approval', async () => {
    const { code, stderr } = await cli(['tools', 'call', 'write', '--args', '{"path":"a","content":"b"}'], gated, {
      stdin: tty('n'),
    });
    expect(code).toBe(0);
    expect(stderr).not.toContain('Allow');
  });
});

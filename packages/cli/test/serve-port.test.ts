import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { smallCatalog } from './helpers.js';

it('serve mcp --http says in one line that the port is in use, without a stack', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as AddressInfo).port;
  let stderr = '';
  try {
    const code = await runCli(['serve', 'mcp', '--http', String(port)], { stdout: { write: () => true }, stderr: { write: (text: string) => (stderr += text) }, cwd: smallCatalog(1) });
    expect(code).toBe(1);
  } finally {
    await new Promise<void>((resolve) => taken.close(() => resolve()));
  }
  const errors = stderr.split('\n').filter((line) => line.startsWith('error'));
  expect(errors).toEqual([`error PORT_IN_USE: port ${port} is in use; pick another with --http`]);
  expect(stderr).not.toContain('    at ');
});

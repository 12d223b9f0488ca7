import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { cli, smallCatalog } from './helpers.js';

// Issue 16 item 6: a port in use is one line naming the port and the flag, no stack trace.
it.each([
  ['gateway', ['gateway', '--provider-mode', 'mock-openai', '--port'], '--port'],
  ['serve mcp --http', ['serve', 'mcp', '--http'], '--http'],
  ['inspect', ['inspect', '--port'], '--port'], // issue 41: this one printed an EADDRINUSE stack
])('%s says in one line that the port is in use', async (name, argv, flag) => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as AddressInfo).port;
  try {
    const { code, stderr } = await cli([...argv, String(port)], smallCatalog(1));
    expect(code).toBe(1);
    const errors = stderr.split('\n').filter((line) => line.startsWith('error'));
    const errorCode = name === 'inspect' ? 'INSPECT_PORT_IN_USE' : 'PORT_IN_USE';
    expect(errors).toEqual([`error ${errorCode}: port ${port} is in use; pick another with ${flag}`]);
    expect(stderr).not.toContain('    at ');
  } finally {
    await new Promise<void>((resolve) => taken.close(() => resolve()));
  }
});

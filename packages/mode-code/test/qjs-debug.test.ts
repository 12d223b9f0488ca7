import { it } from 'vitest';
import { runCode } from '../src/index.js';
import { fakeSourcePlugin, makeRun } from './fixtures.js';
it('debug', async () => {
  const { run, close } = await makeRun([fakeSourcePlugin()]);
  for (const code of ['return [typeof Error.captureStackTrace, typeof Error.prepareStackTrace, new Error("x").stack]']) {
    const result = await runCode(run, code, { sandbox: 'quickjs', codeTimeoutMs: 1000 });
    console.log(JSON.stringify(result));
  }
  await close();
});

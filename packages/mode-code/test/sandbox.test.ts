/** The process layer on its own: what the sandbox command line allows a child to do. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { permissionFlag, sandboxCommand } from '../src/index.js';
import { parseChildMessage } from '../src/sandbox/protocol.js';

const dir = mkdtempSync(join(tmpdir(), 'mode-code-sandbox-'));
const secretFile = join(dir, 'secret.txt');
writeFileSync(secretFile, 'file-secret');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `script` with the sandbox's flags (the entry replaced by -e), as the sandbox is spawned: empty env. */
function inSandbox(script: string): string {
  const { execPath, args } = sandboxCommand(64);
  const entry = args.at(-1)!;
  const result = spawnSync(
    execPath,
    [...args.slice(0, -1), '-e', `const ENTRY = ${JSON.stringify(entry)}; ${script}`],
    { env: {}, cwd: dir, encoding: 'utf8' },
  );
  return result.stdout.trim();
}

const tryCode = (expression: string) =>
  `(() => { try { ${expression}; return 'allowed'; } catch (e) { return e.code || e.name; } })()`;

describe('sandbox process flags', () => {
  it('can read its entry file', () => {
    expect(inSandbox(`console.log(${tryCode(`require('fs').readFileSync(ENTRY)`)})`)).toBe('allowed');
  });

  it('cannot read any other file', () => {
    expect(inSandbox(`console.log(${tryCode(`require('fs').readFileSync(${JSON.stringify(secretFile)})`)})`)).toBe(
      'ERR_ACCESS_DENIED',
    );
    expect(inSandbox(`console.log(${tryCode(`require('fs').readdirSync('/')`)})`)).toBe('ERR_ACCESS_DENIED');
  });

  it('cannot write files', () => {
    expect(
      inSandbox(`console.log(${tryCode(`require('fs').writeFileSync(${JSON.stringify(join(dir, 'out.txt'))}, 'x')`)})`),
    ).toBe('ERR_ACCESS_DENIED');
  });

  it('cannot start child processes or workers', () => {
    expect(inSandbox(`console.log(${tryCode(`require('child_process').spawnSync('true')`)})`)).toBe(
      'ERR_ACCESS_DENIED',
    );
    expect(inSandbox(`console.log(${tryCode(`new (require('worker_threads').Worker)('1', { eval: true })`)})`)).toBe(
      'ERR_ACCESS_DENIED',
    );
  });

  it('cannot generate code from strings even in its own realm', () => {
    expect(inSandbox(`console.log(${tryCode(`new Function('return 1')()`)})`)).toBe('EvalError');
  });

  it('freezes the intrinsics of its own realm before it is ready (in place of --frozen-intrinsics)', () => {
    const output = inSandbox(`(function () {
      'use strict';
      require(ENTRY).hardenRealm();
      const attempts = {
        objectPrototype: () => { Object.prototype.polluted = 1; },
        arrayPrototype: () => { Array.prototype.push = null; },
        functionPrototype: () => { Function.prototype.call = null; },
        promisePrototype: () => Object.defineProperty(Promise.prototype, 'then', { value: null }),
        iteratorPrototype: () => { Object.getPrototypeOf([][Symbol.iterator]()).next = null; },
        asyncFunctionPrototype: () => { Object.getPrototypeOf(async function () {}).polluted = 1; },
        json: () => { JSON.parse = null; },
        reflect: () => { Reflect.apply = null; },
        error: () => { Error.prepareStackTrace = () => 'hooked'; },
        globalThisBinding: () => { globalThis.globalThis = {}; },
      };
      const result = {};
      for (const name of Object.keys(attempts)) {
        try { attempts[name](); result[name] = 'allowed'; } catch (e) { result[name] = e.name; }
      }
      console.log(JSON.stringify({ result, fetch: typeof fetch, binding: typeof process.binding, polluted: typeof ({}).polluted }));
    })()`);
    const parsed = JSON.parse(output) as {
      result: Record<string, string>;
      fetch: string;
      binding: string;
      polluted: string;
    };
    expect(Object.entries(parsed.result).filter(([, outcome]) => outcome !== 'TypeError')).toEqual([]);
    expect(parsed).toMatchObject({ fetch: 'undefined', binding: 'undefined', polluted: 'undefined' });
  });

  it('has an empty environment', () => {
    expect(inSandbox(`console.log(JSON.stringify(process.env))`)).toBe('{}');
  });

  it('picks the permission flag by Node version', () => {
    expect(permissionFlag('20.20.2')).toBe('--experimental-permission');
    expect(permissionFlag('22.12.0')).toBe('--experimental-permission');
    expect(permissionFlag('22.13.0')).toBe('--permission');
    expect(permissionFlag('23.5.0')).toBe('--permission');
    expect(permissionFlag('24.0.0')).toBe('--permission');
    expect(permissionFlag('18.19.0')).toBeUndefined();
  });
});

describe('bridge protocol (parent side)', () => {
  it('accepts only search, describe and call as bridge operations', () => {
    expect(parseChildMessage('{"t":"bridge","id":1,"op":"call","payload":{}}')).toMatchObject({ op: 'call' });
    for (const op of ['exec', 'spawn', 'readFile', 'constructor', '__proto__', 'tool_search_code']) {
      expect(parseChildMessage(JSON.stringify({ t: 'bridge', id: 1, op, payload: {} }))).toBeUndefined();
    }
  });

  it('rejects unknown message types and malformed lines', () => {
    expect(parseChildMessage('{"t":"eval","code":"1"}')).toBeUndefined();
    expect(parseChildMessage('not json')).toBeUndefined();
    expect(parseChildMessage('{"t":"bridge","id":"1","op":"call"}')).toBeUndefined();
    expect(parseChildMessage('{"t":"done","ok":true,"json":{}}')).toBeUndefined();
  });
});

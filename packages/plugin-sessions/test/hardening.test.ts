/**
 * Issue 40: `maxChildrenPerAgent` holds under concurrent spawns (a slot is reserved before the first await; the old
 * check-then-act accepted 11 of 12 with a limit of 10), and attachment names with control, bidi-override, invisible or
 * line-separator characters are refused with a coded error before anything is written.
 */
import { existsSync, mkdtempSync, readdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { createSessionHost } from '@tool-search/sessions';
import { sessionsPlugin, SessionsErrors } from '@tool-search/plugin-sessions';
import { code } from './fixtures.js';

function setup(maxChildren: number) {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'spawn-hardening-')));
  const host = createSessionHost();
  const kernel = createKernel({
    plugins: [sessionsPlugin({ host, workspace, attachments: { enabled: true }, limits: { maxChildren } })],
  });
  host.bind(() => new Promise(() => undefined)); // turns that never finish: every accepted child stays running
  const spawn = async (args: Record<string, unknown>) => {
    const run = await kernel.createRun({ sessionId: 'parent' });
    try {
      return await run.call('sessions_spawn', { task: 'work', ...args });
    } finally {
      await run.close();
    }
  };
  return { workspace, host, spawn };
}

describe('maxChildrenPerAgent under concurrent spawns', () => {
  it('accepts exactly 10 of 12 spawns started at once with a limit of 10', async () => {
    const { host, spawn } = setup(10);
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => spawn({ task: `t${i}` })));
    expect(outcomes.filter((o) => o.status === 'ok')).toHaveLength(10);
    const refused = outcomes.filter((o) => o.status !== 'ok');
    expect(refused.map(code)).toEqual(['SUBAGENT_NOT_ALLOWED', 'SUBAGENT_NOT_ALLOWED']);
    expect(refused.every((o) => o.status === 'error' && /maxChildrenPerAgent/.test(o.error.message))).toBe(true);
    expect((await host.store.list()).filter((s) => s.kind === 'spawn')).toHaveLength(10);
  });

  it('a refused spawn gives its slot back: a later spawn is accepted', async () => {
    const { spawn } = setup(1);
    expect(code(await spawn({ attachments: [{ name: '..', content: 'x' }] }))).toBe(
      SessionsErrors.SESSIONS_ATTACHMENT_REFUSED,
    );
    expect((await spawn({})).status).toBe('ok');
    expect(code(await spawn({}))).toBe('SUBAGENT_NOT_ALLOWED');
  });
});

describe('attachment names with characters that hide or break what they show', () => {
  it.each([
    ['C0 control (U+0001)', 'a\u0001b.txt'],
    ['C0 control (U+001B, escape)', 'a\u001b[31mb.txt'],
    ['DEL (U+007F)', 'a\u007fb.txt'],
    ['C1 control (U+0085)', 'a\u0085b.txt'],
    ['C1 control (U+009B, CSI)', 'a\u009bb.txt'],
    ['bidi embedding (U+202A)', 'a\u202ab.txt'],
    ['bidi override (U+202E)', 'invoice\u202etxt.exe'],
    ['bidi isolate (U+2066)', 'a\u2066b.txt'],
    ['pop directional isolate (U+2069)', 'a\u2069b.txt'],
    ['right-to-left mark (U+200F)', 'a\u200fb.txt'],
    ['line separator (U+2028)', 'a\u2028b.txt'],
    ['paragraph separator (U+2029)', 'a\u2029b.txt'],
    ['zero-width space (U+200B)', 'a\u200bb.txt'],
    ['byte order mark (U+FEFF)', '\ufeffa.txt'],
    ['lone surrogate (U+D800)', 'a\ud800b.txt'],
  ])('%s is refused with SESSIONS_ATTACHMENT_REFUSED and nothing is written', async (_what, name) => {
    const { workspace, host, spawn } = setup(5);
    const outcome = await spawn({ attachments: [{ name, content: 'x' }] });
    expect(code(outcome)).toBe(SessionsErrors.SESSIONS_ATTACHMENT_REFUSED);
    const dir = join(workspace, '.openclaw', 'attachments');
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    expect((await host.store.list()).filter((s) => s.kind === 'spawn')).toEqual([]);
  });

  // Before, each was written: the 400-byte name only after the file before it (left behind, no manifest), the
  // others as names a reader takes for a path, `..`, the manifest, or the file beside them.
  it.each([
    ['a name past 255 bytes (200 × é)', [{ name: 'ok.txt' }, { name: 'é'.repeat(200) }]],
    ['a fullwidth solidus (U+FF0F), read as a folder', [{ name: 'etc\uff0fpasswd' }]],
    ['a two-dot leader (U+2025), read as ..', [{ name: '\u2025' }]],
    ["the manifest's name in capitals", [{ name: '.MANIFEST.json' }]],
    ['the same name composed and decomposed', [{ name: 'caf\u00e9.txt' }, { name: 'cafe\u0301.txt' }]],
    ['the same name in two cases', [{ name: 'Report.txt' }, { name: 'report.txt' }]],
  ])('%s is refused with SESSIONS_ATTACHMENT_REFUSED and nothing is written', async (_what, files) => {
    const { workspace, spawn } = setup(5);
    const outcome = await spawn({ attachments: files.map(({ name }) => ({ name, content: 'x' })) });
    expect(code(outcome)).toBe(SessionsErrors.SESSIONS_ATTACHMENT_REFUSED);
    const dir = join(workspace, '.openclaw', 'attachments');
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('plain Unicode names (accents, CJK, emoji, inner spaces) are still accepted', async () => {
    const { spawn } = setup(5);
    const names = ['résumé.txt', '報告.md', 'chart 📈.png', 'a b.txt'];
    const outcome = await spawn({ attachments: names.map((name) => ({ name, content: 'x' })) });
    expect(outcome.status).toBe('ok');
  });
});

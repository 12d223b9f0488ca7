/** Issue 32: sessions_spawn attachments — materialised, receipted, limited, kept out of transcripts, hostile names refused. */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ToolCallOutcome } from '@tool-search/kernel';
import { createSessionHost } from '@tool-search/sessions';
import { sessionsPlugin, SessionsErrors } from '@tool-search/plugin-sessions';
import { code, data, useSessionsTestbed } from './fixtures.js';

const bed = useSessionsTestbed();

function setup(attachments: unknown = { enabled: true }) {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'spawn-attach-')));
  const host = createSessionHost();
  const kernel = bed.kernel(host, [sessionsPlugin({ host, workspace, attachments })]);
  const spawn = async (args: Record<string, unknown>): Promise<ToolCallOutcome> => {
    const run = await kernel.createRun({ sessionId: 'requester' });
    try {
      return await run.call('sessions_spawn', { task: 'read the files', ...args });
    } catch (error) {
      return { status: 'error', error: { code: (error as { code: string }).code } } as unknown as ToolCallOutcome;
    } finally {
      await run.close();
    }
  };
  return { workspace, host, kernel, spawn };
}
const attachmentsDir = (workspace: string) => join(workspace, '.openclaw', 'attachments');
const SECRET = 'TOP-SECRET-ATTACHMENT-BODY';

describe('sessions_spawn attachments', () => {
  it('are materialised under .openclaw/attachments/<uuid>/ with a .manifest.json and a receipt (count, totalBytes, sha256, relDir)', async () => {
    const { workspace, spawn } = setup();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    const receipt = data(
      await spawn({
        attachments: [
          { name: 'notes.txt', content: SECRET },
          { name: 'pic.png', content: png.toString('base64'), encoding: 'base64', mimeType: 'image/png' },
        ],
      }),
    ).attachments;
    expect(receipt).toMatchObject({ count: 2, totalBytes: SECRET.length + 4 });
    expect(receipt.relDir).toMatch(/^\.openclaw\/attachments\/[0-9a-f-]{36}$/);
    expect(receipt.files).toEqual([
      { name: 'notes.txt', bytes: SECRET.length, sha256: createHash('sha256').update(SECRET).digest('hex') },
      { name: 'pic.png', bytes: 4, sha256: createHash('sha256').update(png).digest('hex'), mimeType: 'image/png' },
    ]);
    const dir = join(workspace, receipt.relDir);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe(SECRET);
    expect(readFileSync(join(dir, 'pic.png'))).toEqual(png);
    expect(JSON.parse(readFileSync(join(dir, '.manifest.json'), 'utf8'))).toMatchObject({
      count: 2,
      relDir: receipt.relDir,
    });
  });

  it('are redacted from transcripts: the content reaches neither session, only the names', async () => {
    const { host, spawn } = setup();
    const spawned = data(await spawn({ attachments: [{ name: 'notes.txt', content: SECRET }] }));
    // The child's first turn records its task (a loaded machine takes a while): poll with a generous deadline.
    const until = Date.now() + 60_000;
    let child = await host.store.transcript(spawned.sessionId);
    while (child.length < 2 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      child = await host.store.transcript(spawned.sessionId);
    }
    expect(child[0]?.content).toContain('notes.txt');
    const everything = JSON.stringify([child, await host.store.transcript('requester'), spawned]);
    expect(everything).not.toContain(SECRET);
  });

  it.each([
    ['..', 'dot-dot'],
    ['../escape.txt', 'a parent path'],
    ['/etc/passwd', 'an absolute path'],
    ['a/b.txt', 'a folder'],
    ['a\\b.txt', 'a backslash'],
    ['nul\0.txt', 'NUL'],
    ['.manifest.json', "the manifest's name"],
  ])('a hostile name (%s: %s) is refused and nothing is written', async (name) => {
    const { workspace, spawn } = setup();
    expect(code(await spawn({ attachments: [{ name, content: 'x' }] }))).toBe(
      SessionsErrors.SESSIONS_ATTACHMENT_REFUSED,
    );
    expect(existsSync(attachmentsDir(workspace)) ? readdirSync(attachmentsDir(workspace)) : []).toEqual([]);
    expect(existsSync(join(workspace, '..', 'escape.txt'))).toBe(false);
  });

  it('a symlinked .openclaw/attachments folder is refused: nothing is written through it', async () => {
    const { workspace, spawn } = setup();
    const outside = mkdtempSync(join(tmpdir(), 'spawn-outside-'));
    mkdirSync(join(workspace, '.openclaw'));
    symlinkSync(outside, attachmentsDir(workspace));
    expect(code(await spawn({ attachments: [{ name: 'a.txt', content: 'x' }] }))).toBe(
      SessionsErrors.SESSIONS_ATTACHMENT_REFUSED,
    );
    expect(readdirSync(outside)).toEqual([]);
  });

  it('limits come from tools.sessions_spawn.attachments (maxFiles, maxFileBytes, maxTotalBytes); off unless enabled', async () => {
    expect(code(await setup({}).spawn({ attachments: [{ name: 'a', content: 'x' }] }))).toBe(
      SessionsErrors.SESSIONS_ATTACHMENT_REFUSED,
    );
    const limited = setup({ enabled: true, maxFiles: 1, maxFileBytes: 4, maxTotalBytes: 6 });
    expect(
      code(
        await limited.spawn({
          attachments: [
            { name: 'a', content: 'x' },
            { name: 'b', content: 'y' },
          ],
        }),
      ),
    ).toBe(SessionsErrors.SESSIONS_ATTACHMENT_REFUSED);
    expect(code(await limited.spawn({ attachments: [{ name: 'a', content: '12345' }] }))).toBe(
      SessionsErrors.SESSIONS_ATTACHMENT_REFUSED,
    );
    expect(
      code(
        await setup({ enabled: true, maxTotalBytes: 6 }).spawn({
          attachments: [
            { name: 'a', content: '1234' },
            { name: 'b', content: '567' },
          ],
        }),
      ),
    ).toBe(SessionsErrors.SESSIONS_ATTACHMENT_REFUSED);
    expect(
      code(await limited.spawn({ attachments: [{ name: 'a', content: '!!notbase64', encoding: 'base64' }] })),
    ).toBe(SessionsErrors.SESSIONS_ATTACHMENT_REFUSED);
    expect(data(await limited.spawn({ attachments: [{ name: 'a', content: '1234' }] })).attachments.count).toBe(1);
    expect(() => sessionsPlugin({ host: createSessionHost(), attachments: { maxFiles: 0 } })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });

  it('a refused spawn leaves no child session behind', async () => {
    const { host, spawn } = setup();
    await spawn({ attachments: [{ name: '..', content: 'x' }] });
    expect((await host.store.list()).filter((s) => s.kind === 'spawn')).toEqual([]);
  });
});

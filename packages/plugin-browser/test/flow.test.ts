/**
 * The Tools document's browser claims, driven on real headless Chromium against loopback pages (so these runs set
 * browser.allowPrivate; address-rules.test.ts proves the refusal without it).
 */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '@tool-search/kernel';
import {
  browserRun,
  errorCode,
  html,
  ok,
  processesWith,
  refOf,
  serve,
  tempDir,
  eventually,
  type TestServer,
  chromiumMissing,
} from './helpers.js';

const runnable = !chromiumMissing('the browser flow tests');
let server: TestServer;
let run: Run;
let stateDir: string;
let workspace: string;
const posted: string[] = [];

beforeAll(async () => {
  if (!runnable) return;
  server = await serve({
    '/form': html(
      `<h1>Sign up</h1><form method="post" action="/submit">
        <label>Name <input name="name"></label>
        <label>Plan <select name="plan"><option value="free">Free</option><option value="pro">Pro</option></select></label>
        <label><input type="checkbox" name="news"> News</label>
        <button type="submit">Send</button></form>
       <script>console.log('form ready'); console.error('an error line');</script>`,
      'Sign up',
    ),
    '/submit': (_req, res, body) => {
      posted.push(body);
      const name = new URLSearchParams(body).get('name') ?? '';
      html(`<p id="thanks">Thanks ${name.replace(/[<&]/g, '')}</p>`, 'Thanks')(_req, res);
    },
    '/dialogs': html(
      `<button onclick="document.title = confirm('Proceed?') ? 'yes' : 'no'">Ask</button>
      <button onclick="document.title = prompt('Your name?') || 'none'">Prompt</button>`,
      'Dialogs',
    ),
    '/upload': html(
      `<input type="file" id="file" aria-label="File" onchange="document.title = this.files[0].name + ':' + this.files[0].size">
      <button onclick="document.getElementById('file').click()">Choose</button>`,
      'Upload',
    ),
    '/drag': html(
      `<div id="a" draggable="true" role="button" aria-label="Drag me" ondragstart="event.dataTransfer.setData('text', 'x')">Drag me</div>
      <div id="b" role="region" aria-label="Drop here" style="width:200px;height:100px" ondragover="event.preventDefault()" ondrop="document.title='dropped'">Drop here</div>
      <a href="#" onmouseover="document.title='hovered'">Hover me</a>`,
      'Drag',
    ),
  });
  stateDir = tempDir('flow');
  workspace = tempDir('workspace');
  writeFileSync(join(workspace, 'notes.txt'), 'hello upload');
  writeFileSync(join(workspace, 'other.txt'), 'other');
  symlinkSync('/etc/passwd', join(workspace, 'link-out.txt'));
  run = await browserRun({
    browser: { allowPrivate: true, profiles: { chrome: { cdpPort: 18851 } } },
    stateDir,
    workspace,
  });
}, 60_000);

afterAll(async () => {
  await run?.close();
  await server?.close();
});

describe.skipIf(!runnable)('browser: the recommended flow', () => {
  let targetId = '';

  it('is listed as core:core:browser with the documented actions', () => {
    const tool = run.tool('browser')!;
    expect(tool.id).toBe('core:core:browser');
    const actions = (tool.inputSchema as { properties: { action: { enum: string[] } } }).properties.action.enum;
    expect(actions).toEqual(
      expect.arrayContaining([
        'status',
        'start',
        'stop',
        'tabs',
        'open',
        'focus',
        'close',
        'snapshot',
        'screenshot',
        'act',
        'navigate',
        'console',
        'pdf',
        'upload',
        'dialog',
        'profiles',
        'create-profile',
        'delete-profile',
        'reset-profile',
      ]),
    );
  });

  it('status says the default profile is not running, then start runs it', async () => {
    const status = ok(await run.call('browser', { action: 'status' }));
    expect(status).toMatchObject({ profile: 'chrome', running: false, kind: 'local', cdpPort: 18851, default: true });
    const started = ok(await run.call('browser', { action: 'start' }));
    expect(started).toMatchObject({ profile: 'chrome', running: true });
    expect(started).toMatchObject({ devtools: 'pipe' });
    // Driven over its DevTools pipe: nothing answers on the profile's port (devtools-access.test.ts tries harder).
    await expect(fetch('http://127.0.0.1:18851/json/version')).rejects.toThrow();
  }, 60_000);

  it('status/start → snapshot → act → screenshot fills and submits a form', async () => {
    const opened = ok(await run.call('browser', { action: 'open', targetUrl: `${server.origin}/form` }));
    expect(opened).toMatchObject({ title: 'Sign up', loaded: true, status: 200 });
    targetId = String(opened.targetId);

    const snap = ok(await run.call('browser', { action: 'snapshot' }));
    const text = String(snap.snapshot);
    expect(snap.format).toBe('ai');
    const name = refOf(text, /textbox "Name"/);
    const plan = refOf(text, /combobox "Plan"/);
    const news = refOf(text, /checkbox "News"/);
    const send = refOf(text, /button "Send"/);

    ok(
      await run.call('browser', {
        action: 'act',
        request: {
          kind: 'fill',
          fields: [
            { ref: name, value: 'Ada' },
            { ref: news, type: 'checkbox', value: true },
          ],
        },
      }),
    );
    ok(await run.call('browser', { action: 'act', request: { kind: 'select', ref: plan, values: ['pro'] } }));
    ok(await run.call('browser', { action: 'act', request: { kind: 'click', ref: send } }));
    ok(await run.call('browser', { action: 'act', request: { kind: 'wait', text: 'Thanks Ada' } }));

    expect(posted).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(posted[0]))).toEqual({ name: 'Ada', plan: 'pro', news: 'on' });

    const shot = await run.call('browser', { action: 'screenshot' });
    if (shot.status !== 'ok') throw new Error(JSON.stringify(shot));
    const image = shot.result.content.find((part) => part.type === 'image') as { data: string; mimeType: string };
    expect(image.mimeType).toBe('image/png');
    expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const media = shot.result.content.find((part) => part.type === 'text') as { text: string };
    expect(media.text).toMatch(/^MEDIA:\//);
    expect(readFileSync(media.text.slice('MEDIA:'.length)).equals(Buffer.from(image.data, 'base64'))).toBe(true);
  }, 90_000);

  it('refs work as e12 and as 12; an unknown ref is BROWSER_REF_UNKNOWN at once', async () => {
    ok(await run.call('browser', { action: 'navigate', targetUrl: `${server.origin}/form` }));
    const snap = ok(await run.call('browser', { action: 'snapshot', snapshotFormat: 'aria' }));
    const nodes = snap.nodes as { ref?: string; role: string; name?: string }[];
    const textbox = nodes.find((node) => node.role === 'textbox' && node.name === 'Name')!;
    expect(textbox.ref).toMatch(/^\d+$/);
    ok(await run.call('browser', { action: 'act', request: { kind: 'type', ref: textbox.ref, text: 'Grace' } }));
    const value = ok(
      await run.call('browser', {
        action: 'act',
        request: { kind: 'evaluate', fn: '() => document.querySelector("input[name=name]").value' },
      }),
    );
    expect(value.result).toBe('Grace');
    ok(await run.call('browser', { action: 'act', request: { kind: 'type', ref: `e${textbox.ref}`, text: 'Linus' } }));
    expect(
      ok(
        await run.call('browser', {
          action: 'act',
          request: { kind: 'evaluate', ref: `e${textbox.ref}`, fn: '(el) => el.value' },
        }),
      ).result,
    ).toBe('Linus');
    expect(errorCode(await run.call('browser', { action: 'act', request: { kind: 'click', ref: 'e9999' } }))).toBe(
      'BROWSER_REF_UNKNOWN',
    );
  }, 60_000);

  it('snapshot options interactive, compact, depth and selector narrow the snapshot', async () => {
    const full = String(ok(await run.call('browser', { action: 'snapshot' })).snapshot);
    const interactive = String(ok(await run.call('browser', { action: 'snapshot', interactive: true })).snapshot);
    expect(interactive.split('\n').every((line) => /^- \w+.*\[ref=e\d+\]$/.test(line))).toBe(true);
    expect(interactive).toMatch(/textbox "Name"/);
    expect(interactive).not.toMatch(/heading/);
    const compact = String(ok(await run.call('browser', { action: 'snapshot', compact: true })).snapshot);
    expect(compact).not.toMatch(/- generic/);
    expect(compact).toMatch(/button "Send"/);
    const shallow = String(ok(await run.call('browser', { action: 'snapshot', depth: 1 })).snapshot);
    expect(shallow.length).toBeLessThan(full.length);
    const form = String(ok(await run.call('browser', { action: 'snapshot', selector: 'form' })).snapshot);
    expect(form).toMatch(/button "Send"/);
    expect(form).not.toMatch(/heading "Sign up"/);
  }, 60_000);

  it("console returns the page's console lines, filtered by level", async () => {
    const all = ok(await run.call('browser', { action: 'console' }));
    expect((all.entries as { text: string }[]).map((entry) => entry.text)).toEqual(
      expect.arrayContaining(['form ready', 'an error line']),
    );
    const errors = ok(await run.call('browser', { action: 'console', level: 'error' }));
    const lines = errors.entries as { text: string; type: string }[];
    expect(lines.map((entry) => entry.text)).toContain('an error line');
    expect(lines.every((entry) => entry.type === 'error')).toBe(true);
    expect(lines.map((entry) => entry.text)).not.toContain('form ready');
  });

  it('dialog answers the next confirm and prompt as asked', async () => {
    ok(await run.call('browser', { action: 'navigate', targetUrl: `${server.origin}/dialogs` }));
    const text = String(ok(await run.call('browser', { action: 'snapshot' })).snapshot);
    ok(await run.call('browser', { action: 'dialog', accept: true }));
    ok(await run.call('browser', { action: 'act', request: { kind: 'click', ref: refOf(text, /button "Ask"/) } }));
    expect(
      await eventually(
        async () =>
          ok(await run.call('browser', { action: 'act', request: { kind: 'evaluate', fn: 'document.title' } }))
            .result === 'yes',
      ),
    ).toBe(true);
    ok(await run.call('browser', { action: 'dialog', accept: true, promptText: 'Ada' }));
    ok(await run.call('browser', { action: 'act', request: { kind: 'click', ref: refOf(text, /button "Prompt"/) } }));
    expect(
      await eventually(
        async () =>
          ok(await run.call('browser', { action: 'act', request: { kind: 'evaluate', fn: 'document.title' } }))
            .result === 'Ada',
      ),
    ).toBe(true);
  }, 60_000);

  it('upload sets workspace files by inputRef, element or the chooser ref, and refuses paths outside the workspace', async () => {
    ok(await run.call('browser', { action: 'navigate', targetUrl: `${server.origin}/upload` }));
    const text = String(ok(await run.call('browser', { action: 'snapshot' })).snapshot);
    const title = async () =>
      ok(await run.call('browser', { action: 'act', request: { kind: 'evaluate', fn: 'document.title' } })).result;
    ok(
      await run.call('browser', {
        action: 'upload',
        inputRef: refOf(text, /button "File"|textbox "File"|"File"/),
        paths: ['notes.txt'],
      }),
    );
    expect(await title()).toBe('notes.txt:12');
    ok(await run.call('browser', { action: 'upload', ref: refOf(text, /button "Choose"/), paths: ['other.txt'] }));
    expect(await title()).toBe('other.txt:5');
    ok(await run.call('browser', { action: 'upload', element: '#file', paths: ['notes.txt'] }));
    expect(errorCode(await run.call('browser', { action: 'upload', element: '#file', paths: ['/etc/passwd'] }))).toBe(
      'BROWSER_UPLOAD_PATH_INVALID',
    );
    expect(
      errorCode(await run.call('browser', { action: 'upload', element: '#file', paths: ['../../../../etc/passwd'] })),
    ).toBe('BROWSER_UPLOAD_PATH_INVALID');
    expect(errorCode(await run.call('browser', { action: 'upload', element: '#file', paths: ['link-out.txt'] }))).toBe(
      'BROWSER_UPLOAD_PATH_INVALID',
    );
  }, 60_000);

  it('act hover, drag, press and resize work on refs', async () => {
    ok(await run.call('browser', { action: 'navigate', targetUrl: `${server.origin}/drag` }));
    const text = String(ok(await run.call('browser', { action: 'snapshot' })).snapshot);
    ok(await run.call('browser', { action: 'act', request: { kind: 'hover', ref: refOf(text, /link "Hover me"/) } }));
    expect(
      ok(await run.call('browser', { action: 'act', request: { kind: 'evaluate', fn: 'document.title' } })).result,
    ).toBe('hovered');
    ok(
      await run.call('browser', {
        action: 'act',
        request: { kind: 'drag', startRef: refOf(text, /button "Drag me"/), endRef: refOf(text, /region "Drop here"/) },
      }),
    );
    expect(
      ok(await run.call('browser', { action: 'act', request: { kind: 'evaluate', fn: 'document.title' } })).result,
    ).toBe('dropped');
    ok(await run.call('browser', { action: 'act', request: { kind: 'press', key: 'Tab' } }));
    expect(
      ok(await run.call('browser', { action: 'act', request: { kind: 'resize', width: 640, height: 480 } })).viewport,
    ).toEqual({ width: 640, height: 480 });
    expect(
      ok(await run.call('browser', { action: 'act', request: { kind: 'evaluate', fn: 'innerWidth' } })).result,
    ).toBe(640);
  }, 60_000);

  it('pdf writes a PDF and answers MEDIA:<path>', async () => {
    const pdf = ok(await run.call('browser', { action: 'pdf' }));
    expect(readFileSync(String(pdf.path)).subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it('tabs, focus and close manage tabs by targetId', async () => {
    const second = ok(await run.call('browser', { action: 'open', targetUrl: `${server.origin}/form` }));
    const tabs = ok(await run.call('browser', { action: 'tabs' })).tabs as {
      targetId: string;
      current: boolean;
      url: string;
    }[];
    expect(tabs.map((tab) => tab.targetId)).toEqual(expect.arrayContaining([targetId, second.targetId]));
    expect(tabs.find((tab) => tab.current)?.targetId).toBe(second.targetId);
    ok(await run.call('browser', { action: 'focus', targetId }));
    expect(
      (ok(await run.call('browser', { action: 'tabs' })).tabs as { targetId: string; current: boolean }[]).find(
        (tab) => tab.current,
      )?.targetId,
    ).toBe(targetId);
    ok(await run.call('browser', { action: 'close', targetId: String(second.targetId) }));
    const after = ok(await run.call('browser', { action: 'tabs' })).tabs as { targetId: string }[];
    expect(after.map((tab) => tab.targetId)).not.toContain(second.targetId);
    expect(errorCode(await run.call('browser', { action: 'focus', targetId: String(second.targetId) }))).toBe(
      'BROWSER_TAB_UNKNOWN',
    );
  }, 60_000);

  it('stop ends every Chromium process of the profile', async () => {
    const userData = join(stateDir, 'profiles', 'chrome', 'user-data');
    expect(processesWith(userData).length).toBeGreaterThan(0);
    expect(ok(await run.call('browser', { action: 'stop' }))).toMatchObject({ stopped: true });
    expect(await eventually(() => processesWith(userData).length === 0)).toBe(true);
    expect(errorCode(await run.call('browser', { action: 'tabs' }))).toBe('BROWSER_NOT_RUNNING');
    expect(existsSync(userData)).toBe(true);
  }, 60_000);
});

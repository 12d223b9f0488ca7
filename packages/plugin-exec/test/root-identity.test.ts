// A root gateway's sandbox is uid 65534 on the host, not host root in a user namespace. bwrap maps the sandbox's uid
// to whoever starts it: started by root, `id` said 65534 inside while every permission check saw host root
// (/etc/shadow, 0600 config files, files it wrote owned by root). Each check below read or wrote as root before the
// fix. Root only: a gateway that is not root never had the problem (its sandbox is its own user).
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openInWorkspace, writeInWorkspace } from '@tool-search/workspace';
import { createKernel, type Kernel, type Run } from '@tool-search/kernel';
import { ExecErrors, execPlugin } from '@tool-search/plugin-exec';
import {
  closeAll,
  execEnv,
  OPEN,
  processGone,
  SANDBOX_RUNS,
  sandboxOwns,
  structured,
  type ExecEnv,
} from './fixtures.js';

afterEach(closeAll);

const ROOT = process.getuid?.() === 0;
if (!ROOT) console.warn('skipping the root-gateway sandbox identity tests: they need root (run the tests as root)');

const SANDBOX = 65534;

/** Every process whose command line holds `marker`, with its host uid and (in a user namespace) its uid map. */
function processesWith(marker: string): { pid: number; uid: number; uidMap?: string }[] {
  const own = readlinkSync('/proc/self/ns/user');
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .flatMap((pid) => {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) return [];
        const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
        const inNamespace = readlinkSync(`/proc/${pid}/ns/user`) !== own;
        return [
          { pid: Number(pid), uid, ...(inNamespace ? { uidMap: readFileSync(`/proc/${pid}/uid_map`, 'utf8') } : {}) },
        ];
      } catch {
        return []; // gone meanwhile
      }
    });
}

async function sandboxOutput(env: { createRun(): Promise<Run> } | ExecEnv, command: string): Promise<string> {
  const run = 'run' in env ? await env.run() : await env.createRun();
  return String(structured(await run.call('exec', { command })).output);
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A config folder and its workspace outside /tmp (the sandbox's /tmp is a private tmpfs: a file under the host's /tmp
 * is not even there), laid out as the preset makes them for a root gateway: the workspace is the sandbox user's.
 */
function folderOutsideTmp(): { base: string; ws: string } {
  const base = realpathSync(mkdtempSync('/var/tmp/plugin-exec-root-'));
  made.push(base);
  const ws = join(base, 'workspace');
  mkdirSync(ws);
  sandboxOwns(base, ws);
  return { base, ws };
}

describe.skipIf(!ROOT || !SANDBOX_RUNS)('a root gateway: sandboxed commands are uid 65534 on the host', () => {
  it('cannot read /etc/shadow', async () => {
    const output = await sandboxOutput(execEnv({ exec: OPEN }), 'cat /etc/shadow; echo rc=$?');
    expect(output).toContain('Permission denied');
    expect(output).not.toMatch(/^root:/m);
  });

  it('cannot read a root-owned 0600 file in the workspace or beside it', async () => {
    const { base, ws } = folderOutsideTmp();
    for (const file of [join(ws, 'root-only.txt'), join(base, 'root-only.txt')])
      writeFileSync(file, 'ROOT SECRET', { mode: 0o600 });
    const output = await sandboxOutput(kernelOver(ws), `cat ${ws}/root-only.txt ${base}/root-only.txt; echo rc=$?`);
    expect(output).not.toContain('ROOT SECRET');
    expect(output.match(/Permission denied/g)).toHaveLength(2);
  });

  it("cannot read the gateway's 0600 config beside the workspace, without the hidden option", async () => {
    const { base, ws } = folderOutsideTmp();
    const config = join(base, 'tool-search.json');
    writeFileSync(config, '{"providers":{"openai":{"apiKey":"sk-SECRET"}}}', { mode: 0o600 });
    const output = await sandboxOutput(kernelOver(ws), `cat ${config}; echo rc=$?`);
    expect(output).not.toContain('sk-SECRET');
    expect(output).toContain('Permission denied');
  });

  it('the host sees every process of the command as uid 65534, its user namespace mapping no id to host 0', async () => {
    const env = execEnv({ exec: OPEN });
    const run = await env.run();
    const marker = `identity-${process.pid}-${Date.now()}`;
    const started = structured(await run.call('exec', { command: `sleep 300; echo ${marker}`, background: true }));
    try {
      let seen = processesWith(marker);
      // Wait for the command's own shell (inside the user namespace) to exist.
      while (!seen.some((p) => p.uidMap !== undefined)) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen = processesWith(marker);
      }
      for (const p of seen) expect(p.uid).toBe(SANDBOX);
      for (const p of seen.filter((p) => p.uidMap !== undefined)) {
        const outside = p
          .uidMap!.trim()
          .split('\n')
          .map((line) => line.trim().split(/\s+/)[1]);
        expect(outside).toEqual([String(SANDBOX)]);
      }
    } finally {
      await run.call('process', { action: 'kill', sessionId: started.sessionId });
    }
  });

  it('a file it creates in the workspace is owned by 65534 on the host, not root', async () => {
    const env = execEnv({ exec: OPEN });
    await sandboxOutput(env, 'echo hi > made.txt && mkdir sub');
    for (const path of ['made.txt', 'sub']) expect(statSync(join(env.ws, path)).uid).toBe(SANDBOX);
  });

  it('write (the file tools) → exec sed -i → read sees the change', async () => {
    const env = execEnv({ exec: OPEN });
    await writeInWorkspace(env.ws, 'notes/a.txt', 'old text\n');
    const output = await sandboxOutput(env, "sed -i 's/old/new/' notes/a.txt && echo >> notes/a.txt added; echo rc=$?");
    expect(output).toContain('rc=0');
    const opened = (await openInWorkspace(env.ws, 'notes/a.txt'))!;
    try {
      expect(await opened.handle.readFile('utf8')).toBe('new text\nadded\n');
    } finally {
      await opened.handle.close();
    }
  });

  it('a hidden path behind a folder the sandbox user cannot enter needs no mount, and exec still runs', async () => {
    const first = execEnv({ exec: OPEN });
    const locked = join(first.outside, 'locked');
    mkdirSync(join(locked, 'cfg'), { recursive: true });
    chmodSync(locked, 0o700);
    const env = execEnv({ exec: OPEN, hidden: [join(locked, 'cfg'), first.outside] });
    const output = await sandboxOutput(env, `ls -A ${first.outside}; echo rc=$?`);
    expect(output).toBe('rc=0\n'); // the reachable hidden folder is an empty tmpfs
  });

  it('a workspace another user owns: exec is listed with a warning that names the chown', async () => {
    const env = execEnv({ exec: OPEN });
    chownSync(env.ws, 0, 0);
    const run = await kernelOver(env.ws).createRun();
    expect(run.tool('exec')).toBeDefined();
    const warning = run.diagnostics.find((d) => d.code === ExecErrors.EXEC_HOST_UNAVAILABLE);
    expect(warning).toMatchObject({ level: 'warning', details: { access: 'read-only' } });
    expect(warning!.message).toContain(`chown -R ${SANDBOX}:${SANDBOX} ${env.ws}`);
  });

  it('a workspace behind a folder only root may enter (a config folder in /root): commands run and write there', async () => {
    const { base, ws } = folderOutsideTmp();
    chmodSync(base, 0o700);
    writeFileSync(join(base, 'tool-search.json'), 'sk-SECRET', { mode: 0o644 });
    const run = await kernelOver(ws).createRun();
    expect(run.tool('exec')).toBeDefined();
    const output = String(
      structured(
        await run.call('exec', { command: `pwd; echo hi > made.txt; ls -A ${base}; cat ${base}/tool-search.json` }),
      ).output,
    );
    expect(output.split('\n').slice(0, 2)).toEqual([ws, 'workspace']); // the folder above holds only the workspace
    expect(output).not.toContain('sk-SECRET');
    expect(statSync(join(ws, 'made.txt')).uid).toBe(SANDBOX);
    // Staged in a mount namespace of the command's own: nothing is left mounted on this machine.
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain('tool-search-workspace');
  });

  it('a staged workspace: a background command dies with the kernel, nothing stays mounted', async () => {
    const { base, ws } = folderOutsideTmp();
    chmodSync(base, 0o700);
    const kernel = kernelOver(ws);
    const run = await kernel.createRun();
    const marker = `staged-${process.pid}-${Date.now()}`;
    await run.call('exec', { command: `sleep 300; echo ${marker}`, background: true });
    while (!processesWith(marker).some((p) => p.uidMap !== undefined))
      await new Promise((resolve) => setTimeout(resolve, 20));
    await kernel.close();
    expect(await processGone(marker)).toBe(true);
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain('tool-search-workspace');
  });

  it('a workspace the sandbox user may not enter itself: exec is not listed, the error names the chown', async () => {
    const { ws } = folderOutsideTmp();
    chownSync(ws, 0, 0);
    chmodSync(ws, 0o700);
    const run = await kernelOver(ws).createRun();
    expect(run.tool('exec')).toBeUndefined();
    const error = run.diagnostics.find((d) => d.code === ExecErrors.EXEC_HOST_UNAVAILABLE);
    expect(error).toMatchObject({ level: 'error' });
    expect(error!.message).toContain(`chown ${SANDBOX}:${SANDBOX} ${ws}`);
  });
});

const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

/** A kernel over a workspace changed after execEnv made it (the plugin checks the workspace when it is created). */
function kernelOver(ws: string): Kernel {
  const kernel = createKernel({ plugins: [execPlugin({ workspace: ws, exec: OPEN })] });
  kernels.push(kernel);
  return kernel;
}

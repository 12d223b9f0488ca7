/**
 * An HTTP request made by another local user: a Node child dropped to `uid` with setpriv (util-linux), for tests of
 * what a server lets other users of the machine do. `canRunAsOtherUser()` says whether this process can (root, Linux
 * /proc/net/tcp, setpriv); tests skip otherwise, saying why.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const OTHER_UID = 65534;

export function canRunAsOtherUser(): boolean {
  return process.getuid?.() === 0 && existsSync('/proc/net/tcp') && spawnSync('setpriv', ['--version']).status === 0;
}

export interface UserRequest {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** Sends one request from a process run as `uid` (undefined: this process's user); its status and parsed JSON body. */
export function fetchAsUser(
  uid: number | undefined,
  url: string,
  init: UserRequest = {},
): Promise<{ status: number; json: unknown }> {
  const script = `
    const res = await fetch(${JSON.stringify(url)}, ${JSON.stringify(init)});
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch {}
    console.log(JSON.stringify({ status: res.status, json }));`;
  const argv = [process.execPath, '--input-type=module', '-e', script];
  const [command, ...args] =
    uid === undefined ? argv : ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', ...argv];
  return new Promise((resolve, reject) => {
    const child = spawn(command as string, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1);
      if (!last) return reject(new Error(`the request as uid ${uid} printed nothing (exit ${code})`));
      resolve(JSON.parse(last) as { status: number; json: unknown });
    });
  });
}

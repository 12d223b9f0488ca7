/**
 * The local-user guard of a keyless front end. Loopback keeps other machines out, not other users of this one: any
 * process that can open a socket to 127.0.0.1 (another login, a service account, the managed browser's uid) would
 * otherwise run agent turns with this server's tools and provider key. Without keys, a connection is served only
 * when the process at its other end runs as this server's user (or root, who can act as it anyway). On Linux the
 * owner of the client's socket is read from /proc/net/tcp and tcp6; elsewhere the check is not made (the README says
 * so): configure auth.keys there.
 */
import { readFile } from 'node:fs/promises';
import { ToolSearchError } from '@tool-search/kernel';
import { AuthErrors } from './errors.js';

/** The two ends of a TCP connection, as `net.Socket` gives them. */
export interface ConnectionEnds {
  readonly remotePort?: number | undefined;
  readonly localPort?: number | undefined;
}

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'] as const;
/** Connections already checked: a keep-alive connection is looked up once. */
const checked = new WeakMap<object, Promise<number | undefined>>();

/**
 * The uid owning the client end of a loopback connection this process accepted, or `undefined` where it cannot be
 * known (no /proc: not Linux). `null`: /proc is there but holds no such socket (the client is gone).
 */
export async function loopbackPeerUid(socket: ConnectionEnds): Promise<number | null | undefined> {
  const { remotePort, localPort } = socket;
  if (remotePort === undefined || localPort === undefined) return null;
  // The client's own entry: its local port is our remote one and its remote port is ours.
  const wanted = `:${hexPort(remotePort)} `;
  const peer = `:${hexPort(localPort)} `;
  let readable = false;
  for (const table of TABLES) {
    const text = await readFile(table, 'latin1').catch(() => undefined); // no such table (no IPv6, not Linux)
    if (text === undefined) continue;
    readable = true;
    for (const line of text.split('\n')) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid …
      if (`${fields[1]} `.endsWith(wanted) && `${fields[2]} `.endsWith(peer)) return Number(fields[7]);
    }
  }
  return readable ? null : undefined;
}

/** Throws `AUTH_OTHER_USER` (HTTP 403) when a keyless server's client runs as another local user. */
export async function assertSameLocalUser(socket: ConnectionEnds & object): Promise<void> {
  let lookup = checked.get(socket);
  if (!lookup) {
    lookup = loopbackPeerUid(socket).then((uid) => (uid === null ? -1 : uid));
    checked.set(socket, lookup);
  }
  const uid = await lookup;
  const self = process.getuid?.();
  if (uid === undefined || self === undefined || uid === self || uid === 0) return;
  throw new ToolSearchError(
    AuthErrors.AUTH_OTHER_USER,
    uid === -1
      ? 'Refused: the owner of this loopback connection cannot be found, so it may be another local user; configure auth.keys to serve it'
      : `Refused: this loopback connection comes from another local user (uid ${uid}); a keyless server serves only its own user (uid ${self}). Configure auth.keys to serve other users`,
    { details: { uid: uid === -1 ? null : uid, serverUid: self } },
  );
}

const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');

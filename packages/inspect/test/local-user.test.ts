/**
 * The keyless inspect page serves its own user only: another local user (uid 65534, through setpriv) gets 403
 * AUTH_OTHER_USER on the page and on the API, which show the catalog, policy and session transcripts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '@tool-search/kernel';
import { canRunAsOtherUser, fetchAsUser, OTHER_UID } from '@tool-search/testing';
import { startInspectServer, type InspectServer } from '../src/index.js';

const CAN_DROP = canRunAsOtherUser();
if (!CAN_DROP)
  console.warn('skipping the other-local-user inspect tests: they need root, /proc/net/tcp (Linux) and setpriv');

let kernel: Kernel;
let server: InspectServer;
beforeAll(async () => {
  kernel = createKernel();
  server = await startInspectServer({ kernel, config: {}, countTokens: false });
});
afterAll(async () => {
  await server?.close();
  await kernel?.close();
});

describe.skipIf(!CAN_DROP)('inspect and another local user', () => {
  it('refuses uid 65534 on the page and the API, serves its own user', async () => {
    const base = server.url.replace(/\/(\?.*)?$/, '');
    for (const path of ['/', '/api/sessions']) {
      const other = await fetchAsUser(OTHER_UID, `${base}${path}`);
      expect(other.status).toBe(403);
      expect(JSON.stringify(other.json)).toContain('AUTH_OTHER_USER');
    }
    expect((await fetchAsUser(undefined, `${base}/api/sessions`)).status).toBe(200);
  });
});

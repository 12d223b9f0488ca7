/**
 * WebRTC sends UDP straight from the browser, around the egress proxy that applies the address rules: a page could
 * reach a STUN/TURN server on 127.0.0.1 (or any private address). Without `browser.allowPrivate` Chromium is started
 * with WebRTC's non-proxied UDP off, so not one packet arrives; with it, the page's UDP goes out as usual.
 */
import { createSocket, type Socket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '@tool-search/kernel';
import { NO_WEBRTC_UDP_FLAG } from '../src/instance.js';
import { browserProcesses, browserRun, chromiumMissing, eventually, ok, tempDir } from './helpers.js';

const runnable = !chromiumMissing('the WebRTC tests');

let udp: Socket;
let packets = 0;

beforeAll(async () => {
  if (!runnable) return;
  udp = createSocket('udp4');
  udp.on('message', () => packets++);
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
});
afterAll(() => {
  udp?.close();
});

/** The page's ICE gathering against a STUN and a TURN server on the test's UDP port. */
function gather(port: number, waitForEnd: boolean): string {
  return `async () => {
    const pc = new RTCPeerConnection({ iceServers: [
      { urls: 'stun:127.0.0.1:${port}' },
      { urls: 'turn:127.0.0.1:${port}?transport=udp', username: 'u', credential: 'p' },
    ] });
    window.keep = pc;
    const candidates = [];
    pc.onicecandidate = (event) => event.candidate && candidates.push(event.candidate.candidate);
    const complete = new Promise((resolve) => {
      pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve();
    });
    pc.createDataChannel('x');
    await pc.setLocalDescription(await pc.createOffer());
    if (${waitForEnd}) await complete;
    return { state: pc.iceGatheringState, candidates };
  }`;
}

async function startedRun(allowPrivate: boolean, name: string): Promise<{ run: Run; userData: string }> {
  const stateDir = tempDir(name);
  const run = await browserRun({ browser: { allowPrivate, actionTimeoutMs: 60_000 }, stateDir });
  ok(await run.call('browser', { action: 'start' }));
  ok(await run.call('browser', { action: 'open', targetUrl: 'about:blank' }));
  return { run, userData: join(stateDir, 'profiles', 'chrome', 'user-data') };
}

function launchedWith(userData: string): string[] {
  const [pid] = browserProcesses(userData);
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
}

describe.skipIf(!runnable)('WebRTC UDP follows browser.allowPrivate', () => {
  it('allowPrivate off: ICE gathering ends and no UDP packet reaches 127.0.0.1', async () => {
    const { run, userData } = await startedRun(false, 'webrtc-off');
    expect(launchedWith(userData)).toContain(NO_WEBRTC_UDP_FLAG);
    const before = packets;
    const outcome = ok(
      await run.call('browser', { action: 'act', request: { kind: 'evaluate', fn: gather(udp.address().port, true) } }),
    );
    expect(outcome.result).toMatchObject({ state: 'complete' });
    expect(packets - before).toBe(0);
    await run.close();
  }, 120_000);

  it('allowPrivate on: the page reaches the STUN/TURN server on 127.0.0.1 over UDP', async () => {
    const { run, userData } = await startedRun(true, 'webrtc-on');
    expect(launchedWith(userData)).not.toContain(NO_WEBRTC_UDP_FLAG);
    const before = packets;
    ok(
      await run.call('browser', {
        action: 'act',
        request: { kind: 'evaluate', fn: gather(udp.address().port, false) },
      }),
    );
    expect(await eventually(() => packets > before, 60_000)).toBe(true);
    await run.close();
  }, 120_000);
});

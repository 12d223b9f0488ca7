/**
 * The browser tool's state: the profiles, one running browser per started profile, and the egress proxy. Each
 * action is bounded by a deadline, so a page that never loads, loops on alerts or is huge cannot stall a caller.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  checkHost,
  isPublicAddress,
  type AddressAllowed,
  type AddressRule,
  NetGuardErrors,
} from '@tool-search/net-guard';
import { ErrorCode, ToolSearchError, type ToolResult } from '@tool-search/kernel';
import { act, argumentsError, locate, type ActRequest } from './act.js';
import { BrowserErrors } from './errors.js';
import { REFUSED_HEADER, startEgressProxy, type EgressProxy } from './egress-proxy.js';
import { BrowserInstance, LAUNCH_TIMEOUT_MS, message } from './instance.js';
import type { BrowserUser } from './launcher.js';
import { ProfileStore, type Profile } from './profiles.js';
import { findLeftover, stopLeftover } from './leftovers.js';
import { removeProfileFolder } from './remove.js';
import type { BrowserAction } from './schema.js';
import { takeSnapshot } from './snapshot.js';
import { checkTarget } from './target.js';

export interface ControllerSettings {
  readonly executablePath: string;
  readonly stateDir: string;
  readonly workspace: string;
  readonly defaultProfile: string;
  readonly profiles: ProfileStore;
  readonly allowPrivate: boolean;
  readonly addressAllowed: AddressAllowed;
  readonly evaluateEnabled: boolean;
  readonly actionTimeoutMs: number;
  readonly navigationTimeoutMs: number;
  /** Set when this process is root: the user Chromium runs as. */
  readonly user?: BrowserUser;
}

export const BROWSER_RULE: AddressRule = { tool: 'browser', setting: 'browser.allowPrivate' };
export { isPublicAddress };

type Args = Readonly<Record<string, unknown>>;

export class BrowserController {
  readonly #running = new Map<string, Promise<BrowserInstance>>();
  #proxy?: Promise<EgressProxy>;
  #closed = false;

  constructor(readonly settings: ControllerSettings) {}

  async handle(args: Args, signal: AbortSignal): Promise<ToolResult> {
    const action = args.action as BrowserAction;
    checkTarget(args);
    // Launching Chromium on a loaded machine can take long: start gets the launch's own bound (LAUNCH_TIMEOUT_MS).
    const budget =
      action === 'start'
        ? LAUNCH_TIMEOUT_MS
        : action === 'open' || action === 'navigate'
          ? this.settings.navigationTimeoutMs
          : this.settings.actionTimeoutMs;
    return bounded(this.#dispatch(action, args), budget + 5_000, signal, action);
  }

  async #dispatch(action: BrowserAction, args: Args): Promise<ToolResult> {
    switch (action) {
      case 'status':
        return json(await this.#status(this.#profile(args)));
      case 'start':
        await this.#start(this.#profile(args));
        return json(await this.#status(this.#profile(args)));
      case 'stop': {
        const profile = this.#profile(args);
        const stopped = await this.#stop(profile.name);
        // A Chromium left holding a local profile (see leftovers.ts) is this profile's browser too.
        const leftover = profile.kind === 'local' ? await this.#stopLeftover(profile.name) : [];
        return json({
          profile: profile.name,
          stopped: stopped || leftover.length > 0,
          ...(leftover.length ? { stoppedLeftover: leftover } : {}),
        });
      }
      case 'profiles':
        return json({
          profiles: await Promise.all(this.settings.profiles.list().map((profile) => this.#status(profile))),
        });
      case 'create-profile': {
        // A cdpUrl chosen through the tool is a model-chosen address: the same rule as navigation (config profiles are the operator's).
        if (typeof args.cdpUrl === 'string' && !this.settings.allowPrivate)
          await checkHost(cdpHost(args.cdpUrl), BROWSER_RULE, this.settings.addressAllowed);
        const profile = this.settings.profiles.create(profileName(args), {
          ...(typeof args.cdpUrl === 'string' ? { cdpUrl: args.cdpUrl } : {}),
          ...(typeof args.color === 'string' ? { color: args.color } : {}),
        });
        return json({ created: describeProfile(profile, this.settings.defaultProfile) });
      }
      case 'delete-profile': {
        const name = profileName(args);
        // Refused before anything is touched: a protected profile's browser keeps running.
        this.settings.profiles.checkDeletable(name);
        await this.#stop(name);
        const profile = this.settings.profiles.delete(name);
        if (profile.kind === 'local') await removeProfileFolder(join(this.settings.stateDir, 'profiles', name));
        return json({ deleted: name });
      }
      case 'reset-profile': {
        const profile = this.settings.profiles.get(profileName(args));
        if (profile.kind === 'remote')
          throw new ToolSearchError(
            BrowserErrors.BROWSER_PROFILE_PROTECTED,
            `profile "${profile.name}" is remote (attach-only): its browser's data is not ours to reset`,
            { details: { profile: profile.name } },
          );
        const wasRunning = await this.#stop(profile.name);
        // A Chromium this process does not drive (an earlier host crashed, or one was started on the profile's
        // folder) still holds the profile: stopped first, or its data would be wiped under it.
        const leftover = await this.#stopLeftover(profile.name);
        await removeProfileFolder(this.settings.profiles.userDataDir(profile.name));
        return json({ reset: profile.name, wasRunning, ...(leftover.length ? { stoppedLeftover: leftover } : {}) });
      }
      default:
        return this.#tabAction(action, args);
    }
  }

  async #tabAction(action: BrowserAction, args: Args): Promise<ToolResult> {
    const instance = await this.#instance(this.#profile(args));
    const targetId = typeof args.targetId === 'string' ? args.targetId : undefined;
    switch (action) {
      case 'tabs':
        return json({ profile: instance.profile.name, tabs: await this.#tabs(instance) });
      case 'open': {
        const url = navigationUrl(args);
        const page = await instance.context.newPage();
        instance.focus(page);
        return json({ targetId: await instance.targetId(page), ...(await this.#navigate(page, url)) });
      }
      case 'navigate': {
        const page = await instance.page(targetId);
        return json({ targetId: await instance.targetId(page), ...(await this.#navigate(page, navigationUrl(args))) });
      }
      case 'focus': {
        if (!targetId) throw argumentsError('focus needs targetId (from "tabs")');
        const page = await instance.page(targetId);
        await page.bringToFront();
        instance.focus(page);
        return json({ focused: await instance.targetId(page), url: page.url() });
      }
      case 'close': {
        const page = await instance.page(targetId);
        const id = await instance.targetId(page);
        await page.close({ runBeforeUnload: false });
        return json({ closed: id });
      }
      default:
        return this.#pageAction(action, instance, await instance.page(targetId), args);
    }
  }

  async #pageAction(action: BrowserAction, instance: BrowserInstance, page: Page, args: Args): Promise<ToolResult> {
    const targetId = await instance.targetId(page);
    const timeout = this.settings.actionTimeoutMs;
    try {
      switch (action) {
        case 'snapshot': {
          const snapshot = await takeSnapshot(page, {
            format: args.snapshotFormat === 'aria' ? 'aria' : 'ai',
            ...(typeof args.interactive === 'boolean' ? { interactive: args.interactive } : {}),
            ...(typeof args.compact === 'boolean' ? { compact: args.compact } : {}),
            ...(typeof args.depth === 'number' ? { depth: args.depth } : {}),
            ...(typeof args.selector === 'string' ? { selector: args.selector } : {}),
            maxChars: typeof args.maxChars === 'number' ? args.maxChars : 50_000,
            limit: typeof args.limit === 'number' ? args.limit : 2_000,
            timeoutMs: timeout,
          });
          const { refMap, ...shown } = snapshot;
          instance.state(page).refs = refMap;
          const head = { targetId, url: page.url(), title: await this.#titleOf(page) };
          if (shown.format === 'ai')
            return {
              content: [{ type: 'text', text: `${JSON.stringify(head)}\n${shown.snapshot}` }],
              structuredContent: { ...head, ...shown },
            };
          return json({ ...head, ...shown });
        }
        case 'act': {
          const request = args.request as ActRequest;
          const result = await act(page, request, {
            evaluateEnabled: this.settings.evaluateEnabled,
            timeoutMs: timeout,
            refs: instance.state(page).refs,
          });
          return json({
            targetId,
            kind: request.kind,
            ok: true,
            ...result,
            ...(page.isClosed() ? {} : { url: page.url() }),
          });
        }
        case 'screenshot': {
          const type = args.type === 'jpeg' ? 'jpeg' : 'png';
          const target =
            typeof args.ref === 'string'
              ? await locate(page, instance.state(page).refs, args.ref)
              : typeof args.element === 'string'
                ? page.locator(args.element).first()
                : undefined;
          const bytes = target
            ? await target.screenshot({ type, timeout })
            : await page.screenshot({ type, fullPage: args.fullPage === true, timeout });
          const path = this.#media(type === 'png' ? 'png' : 'jpg', bytes);
          const mimeType = type === 'png' ? 'image/png' : 'image/jpeg';
          return {
            content: [
              { type: 'image', data: bytes.toString('base64'), mimeType },
              { type: 'text', text: `MEDIA:${path}` },
            ],
            structuredContent: { targetId, url: page.url(), path, mimeType, bytes: bytes.length },
          };
        }
        case 'pdf': {
          const bytes = await page.pdf({ printBackground: true });
          const path = this.#media('pdf', bytes);
          return {
            content: [{ type: 'text', text: `MEDIA:${path}` }],
            structuredContent: { targetId, url: page.url(), path, mimeType: 'application/pdf', bytes: bytes.length },
          };
        }
        case 'console': {
          const tab = instance.state(page);
          const entries = tab.console.filter(
            (entry) => !args.level || entry.type === args.level || (args.level === 'warning' && entry.type === 'warn'),
          );
          const limit = typeof args.limit === 'number' ? args.limit : 200;
          return json({ targetId, entries: entries.slice(-limit), total: entries.length });
        }
        case 'upload': {
          if (!Array.isArray(args.paths) || args.paths.length === 0)
            throw argumentsError('upload needs paths: workspace files to upload');
          const copies = await instance.uploads.copy(this.settings.workspace, args.paths.map(String));
          const files = copies.map((copy) => copy.path);
          if (typeof args.inputRef === 'string')
            await (await locate(page, instance.state(page).refs, args.inputRef, 'inputRef')).setInputFiles(files, {
              timeout,
            });
          else if (typeof args.element === 'string')
            await page.locator(args.element).first().setInputFiles(files, { timeout });
          else if (typeof args.ref === 'string') {
            const trigger = await locate(page, instance.state(page).refs, args.ref);
            const [chooser] = await Promise.all([
              page.waitForEvent('filechooser', { timeout }),
              trigger.click({ timeout }),
            ]);
            await chooser.setFiles(files, { timeout });
          } else
            throw argumentsError(
              'upload needs ref (opens the file chooser), inputRef or element (an <input type=file>)',
            );
          return json({ targetId, uploaded: copies.map((copy) => copy.relative) });
        }
        case 'dialog': {
          if (typeof args.accept !== 'boolean')
            throw argumentsError('dialog needs accept: true (accept) or false (dismiss)');
          const tab = instance.state(page);
          const promptText = typeof args.promptText === 'string' ? args.promptText : undefined;
          if (tab.open) {
            const open = tab.open;
            tab.open = undefined;
            tab.autoDismissed = 0;
            await (args.accept ? open.accept(promptText) : open.dismiss());
            return json({ targetId, answered: { type: open.type(), message: open.message(), accepted: args.accept } });
          }
          tab.armed = { accept: args.accept, ...(promptText !== undefined ? { promptText } : {}) };
          return json({ targetId, armed: { accept: args.accept }, recent: tab.dialogs.slice(-10) });
        }
        default:
          throw argumentsError(`unknown action ${String(action)}`);
      }
    } catch (error) {
      throw toBrowserError(error, action, instance.state(page).open !== undefined);
    }
  }

  async #navigate(page: Page, url: URL): Promise<Record<string, unknown>> {
    if (url.href !== 'about:blank' && !this.settings.allowPrivate)
      await checkHost(url.hostname, BROWSER_RULE, this.settings.addressAllowed);
    const proxy = this.#proxy ? await this.#proxy : undefined;
    const before = proxy?.refusals.length ?? 0;
    const refusedNow = () => proxy?.refusals.slice(before) ?? [];
    let loaded = true;
    let status: number | undefined;
    try {
      const response = await page.goto(url.href, {
        waitUntil: 'domcontentloaded',
        timeout: this.settings.navigationTimeoutMs,
      });
      status = response?.status();
      if (response?.headers()[REFUSED_HEADER]) {
        await page.goto('about:blank').catch(() => undefined); // leaving the refused page; the refusal below is what counts
        throw (
          refusedNow().at(-1)?.error ??
          new ToolSearchError(NetGuardErrors.URL_NOT_ALLOWED, `browser refused ${url.host}: not a public address`, {
            details: { rule: 'privateAddress', host: url.host },
          })
        );
      }
    } catch (error) {
      if (ToolSearchError.isInstance(error)) throw error;
      const refusal = refusedNow().at(-1);
      if (refusal) throw refusal.error;
      if ((error as { name?: string }).name !== 'TimeoutError') {
        throw new ToolSearchError(
          BrowserErrors.BROWSER_ACTION_FAILED,
          `browser could not load ${url.href}: ${message(error)}`,
          { details: { url: url.href }, cause: error },
        );
      }
      loaded = false;
    }
    const blocked = refusedNow().map((refusal) => ({ host: refusal.host, address: refusal.address }));
    return {
      url: page.url(),
      title: await this.#titleOf(page),
      ...(status !== undefined ? { status } : {}),
      loaded,
      ...(blocked.length ? { blocked } : {}),
    };
  }

  async #tabs(instance: BrowserInstance): Promise<Record<string, unknown>[]> {
    const current = instance.current();
    return Promise.all(
      instance.pages().map(async (page) => ({
        targetId: await instance.targetId(page),
        url: page.url(),
        title: await this.#titleOf(page),
        current: page === current,
      })),
    );
  }

  #profile(args: Args): Profile {
    return this.settings.profiles.get(typeof args.profile === 'string' ? args.profile : this.settings.defaultProfile);
  }

  async #status(profile: Profile): Promise<Record<string, unknown>> {
    const running = this.#running.get(profile.name);
    const instance = running ? await running.catch(() => undefined) : undefined; // a launch that failed reports itself to its caller; status shows it as not running
    return {
      ...describeProfile(profile, this.settings.defaultProfile),
      running: instance !== undefined,
      ...(profile.kind === 'local' ? { executablePath: this.settings.executablePath, headless: true } : {}),
      allowPrivate: this.settings.allowPrivate,
      ...(instance ? { tabs: instance.pages().length } : {}),
      ...(instance?.confinement ? { uid: instance.confinement.uid, sandbox: instance.confinement.sandbox } : {}),
    };
  }

  async #start(profile: Profile): Promise<BrowserInstance> {
    if (this.#closed) throw new ToolSearchError(BrowserErrors.BROWSER_NOT_RUNNING, 'the browser tool is shut down');
    let running = this.#running.get(profile.name);
    if (!running) {
      running = (async () => {
        if (profile.kind === 'local') this.#refuseHeldProfile(profile.name);
        const proxy = this.settings.allowPrivate || profile.kind === 'remote' ? undefined : await this.#egress();
        const instance = await BrowserInstance.start(profile, {
          executablePath: this.settings.executablePath,
          userDataDir: this.settings.profiles.userDataDir(profile.name),
          ...(proxy ? { proxy } : {}),
          actionTimeoutMs: this.settings.actionTimeoutMs,
          navigationTimeoutMs: this.settings.navigationTimeoutMs,
          ...(this.settings.user ? { user: this.settings.user } : {}),
          launchersDir: join(this.settings.stateDir, 'launchers'),
        });
        // Chromium gone on its own (crash, killed): the next call starts a fresh one.
        instance.context.on('close', () => {
          if (this.#running.get(profile.name) === running) this.#running.delete(profile.name);
        });
        return instance;
      })();
      this.#running.set(profile.name, running);
      running.catch(() => {
        if (this.#running.get(profile.name) === running) this.#running.delete(profile.name);
      });
    }
    return running;
  }

  async #instance(profile: Profile): Promise<BrowserInstance> {
    const running = this.#running.get(profile.name);
    if (!running)
      throw new ToolSearchError(
        BrowserErrors.BROWSER_NOT_RUNNING,
        `browser profile "${profile.name}" is not running; call action "start" first`,
        { details: { profile: profile.name } },
      );
    return running;
  }

  /** Stops a profile's browser; true when one was running. */
  async #stop(name: string): Promise<boolean> {
    const running = this.#running.get(name);
    if (!running) return false;
    this.#running.delete(name);
    const instance = await running.catch(() => undefined); // a launch that failed has no browser to stop
    await instance?.stop();
    return instance !== undefined;
  }

  #stopLeftover(name: string): Promise<number[]> {
    return stopLeftover({ userDataDir: this.settings.profiles.userDataDir(name), uid: this.#browserUid() });
  }

  /** A Chromium this process does not drive holds the profile: a new one would abort on its lock, so say what to do. */
  #refuseHeldProfile(name: string): void {
    const pid = findLeftover({ userDataDir: this.settings.profiles.userDataDir(name), uid: this.#browserUid() });
    if (pid === undefined) return;
    throw new ToolSearchError(
      BrowserErrors.BROWSER_START_FAILED,
      `browser profile "${name}" is held by a Chromium this process did not start (pid ${pid}, left from an earlier run or started on the profile's folder); action "stop" stops it ("reset-profile" also wipes the profile)`,
      { details: { profile: name, leftoverPid: pid } },
    );
  }

  /** The uid this host's Chromium runs as: its own under a root host, else ours. */
  #browserUid(): number {
    return this.settings.user?.uid ?? process.getuid?.() ?? -1;
  }

  #egress(): Promise<EgressProxy> {
    return (this.#proxy ??= startEgressProxy(BROWSER_RULE, this.settings.addressAllowed));
  }

  /** Stops every browser this tool started (remote ones are disconnected) and the proxy. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#running.keys()].map((name) => this.#stop(name)));
    const proxy = this.#proxy;
    this.#proxy = undefined;
    await (await proxy?.catch(() => undefined))?.close(); // a proxy that failed to start has nothing to close
  }

  /** The tab's title, or '' when the page does not answer within the title wait (or the action's own bound, if shorter). */
  #titleOf(page: Page): Promise<string> {
    const ms = Math.min(TITLE_WAIT_MS, this.settings.actionTimeoutMs);
    return bounded(page.title(), ms, undefined, 'title').catch(() => '');
  }

  #media(extension: string, bytes: Buffer): string {
    const dir = join(this.settings.stateDir, 'media');
    mkdirSync(dir, { recursive: true });
    const path = join(
      dir,
      `browser-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.${extension}`,
    );
    writeFileSync(path, bytes);
    return path;
  }
}

function describeProfile(profile: Profile, defaultName: string): Record<string, unknown> {
  return {
    profile: profile.name,
    kind: profile.kind,
    ...(profile.kind === 'local'
      ? // Driven over its DevTools pipe: the port is the profile's number (OpenClaw's key), nothing listens on it.
        { cdpPort: profile.cdpPort, devtools: 'pipe' }
      : { cdpUrl: profile.cdpUrl, attachOnly: true }),
    ...(profile.color ? { color: profile.color } : {}),
    default: profile.name === defaultName,
    origin: profile.origin,
  };
}

function cdpHost(raw: string): string {
  try {
    return new URL(raw).hostname;
  } catch {
    throw argumentsError(`cdpUrl must be an http(s) or ws(s) URL, got ${JSON.stringify(raw.slice(0, 200))}`);
  }
}

function profileName(args: Args): string {
  const name = typeof args.name === 'string' ? args.name : typeof args.profile === 'string' ? args.profile : undefined;
  if (name === undefined) throw argumentsError('this action needs name (the profile name)');
  return name;
}

/** http(s) or about:blank, no credentials: the scheme rules of web_fetch. */
function navigationUrl(args: Args): URL {
  const raw = typeof args.targetUrl === 'string' ? args.targetUrl : typeof args.url === 'string' ? args.url : undefined;
  if (raw === undefined) throw argumentsError('this action needs targetUrl');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolSearchError(
      NetGuardErrors.URL_NOT_ALLOWED,
      `browser needs an absolute http(s) URL, got ${JSON.stringify(raw.slice(0, 200))}`,
      { details: { rule: 'url', url: raw.slice(0, 200) } },
    );
  }
  if (url.href === 'about:blank') return url;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolSearchError(
      NetGuardErrors.URL_NOT_ALLOWED,
      `browser only opens http(s) URLs (and about:blank), not ${url.protocol}`,
      { details: { rule: 'scheme', url: url.href.slice(0, 200) } },
    );
  }
  if (url.username || url.password) {
    throw new ToolSearchError(NetGuardErrors.URL_NOT_ALLOWED, 'browser does not open URLs with embedded credentials', {
      details: { rule: 'credentials', url: `${url.protocol}//${url.host}` },
    });
  }
  return url;
}

/** The longest wait for a tab's title (a busy page never answers): an empty title then, never a stuck answer. */
const TITLE_WAIT_MS = 2_000;

function toBrowserError(error: unknown, action: string, dialogOpen: boolean): ToolSearchError {
  if (ToolSearchError.isInstance(error)) return error;
  const hint = dialogOpen ? '; a dialog is open on this tab: answer it with action "dialog"' : '';
  if ((error as { name?: string }).name === 'TimeoutError') {
    return new ToolSearchError(BrowserErrors.BROWSER_TIMEOUT, `browser ${action} timed out: ${message(error)}${hint}`, {
      details: { action, dialogOpen },
      cause: error,
    });
  }
  return new ToolSearchError(
    BrowserErrors.BROWSER_ACTION_FAILED,
    `browser ${action} failed: ${message(error)}${hint}`,
    { details: { action }, cause: error },
  );
}

/** The promise, or BROWSER_TIMEOUT after `ms`, or TOOL_CALL_ABORTED when the caller gives up; the timer never outlives it. */
function bounded<T>(promise: Promise<T>, ms: number, signal: AbortSignal | undefined, action: string): Promise<T> {
  return new Promise<T>((resolvePromise, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new ToolSearchError(
            BrowserErrors.BROWSER_TIMEOUT,
            `browser ${action} did not finish in ${ms} ms (a busy or never-loading page); close the tab or stop the browser`,
            { details: { action, ms } },
          ),
        ),
      ms,
    );
    const onAbort = () =>
      reject(
        new ToolSearchError(ErrorCode.TOOL_CALL_ABORTED, `browser ${action} was aborted`, { cause: signal?.reason }),
      );
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(resolvePromise, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

function json(value: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

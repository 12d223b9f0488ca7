/**
 * One running browser for one profile: a local Chromium launched with playwright-core on its own user-data folder,
 * driven over its DevTools pipe (`--remote-debugging-pipe`, inherited descriptors: no port or socket another local
 * user could connect to), or a remote browser attached over `cdpUrl` (the operator's explicit opt-in). It keeps the
 * tabs (by CDP targetId), each tab's console, and answers JavaScript dialogs so a hostile page cannot stall the process.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, BrowserType, Dialog, Page } from 'playwright-core';
import { CHROMIUM_FLAGS } from '@tool-search/chromium';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { BrowserErrors } from './errors.js';
import type { EgressProxy } from './egress-proxy.js';
import { prepareLauncher, type BrowserUser } from './launcher.js';
import type { Profile } from './profiles.js';
import { UploadCopies } from './uploads.js';

export interface LaunchSettings {
  readonly executablePath: string;
  readonly userDataDir: string;
  /** Set when pages may reach only public addresses. */
  readonly proxy?: EgressProxy;
  readonly actionTimeoutMs: number;
  readonly navigationTimeoutMs: number;
  /** Set when this process is root: Chromium runs as this user (see launcher.ts), its launchers kept here. */
  readonly user?: BrowserUser;
  readonly launchersDir: string;
}

/** How a local browser runs: its user (when not ours) and whether Chromium's own sandbox is on. */
export interface Confinement {
  readonly uid: number;
  readonly sandbox: boolean;
}

export interface ConsoleEntry {
  readonly type: string;
  readonly text: string;
  readonly at: string;
}

export interface DialogEntry {
  readonly type: string;
  readonly message: string;
  readonly handled: 'accepted' | 'dismissed' | 'open';
  readonly at: string;
}

/** The shared headless flags. */
export const BROWSER_FLAGS: readonly string[] = [...CHROMIUM_FLAGS];

/**
 * With the egress proxy: WebRTC may not send UDP (which no HTTP proxy carries) around it, e.g. to a TURN server on
 * 127.0.0.1. Measured on Debian's Chromium 156: this switch (or the `webrtc.ip_handling_policy` preference) stops
 * every packet; `--force-webrtc-ip-handling-policy=…`, used before, is not read and stopped nothing.
 */
export const NO_WEBRTC_UDP_FLAG = '--webrtc-ip-handling-policy=disable_non_proxied_udp';

/** How long Chromium may take to start (or a remote browser to answer) on a loaded machine. */
export const LAUNCH_TIMEOUT_MS = 60_000;

const CONSOLE_KEEP = 500;
const DIALOG_KEEP = 100;
/** Dialogs nobody armed an answer for are dismissed, up to this many per tab; then the next one stays open (the page waits). */
const AUTO_DISMISS = 50;

interface TabState {
  targetId?: string;
  /** The latest snapshot's refs (ours → Playwright's). */
  refs: ReadonlyMap<string, string>;
  console: ConsoleEntry[];
  dialogs: DialogEntry[];
  autoDismissed: number;
  open?: Dialog;
  armed?: { accept: boolean; promptText?: string };
}

export class BrowserInstance {
  readonly #tabs = new WeakMap<Page, TabState>();
  #current?: Page;
  /** The private copies `upload` gave this browser; removed with it. */
  readonly uploads: UploadCopies;

  private constructor(
    readonly profile: Profile,
    readonly context: BrowserContext,
    readonly browser: Browser | undefined,
    readonly confinement?: Confinement,
    user?: BrowserUser,
  ) {
    this.uploads = new UploadCopies(user);
    for (const page of context.pages()) this.#watch(page);
    context.on('page', (page) => {
      this.#watch(page);
      this.#current = page;
    });
    context.on('close', () => void this.uploads.remove().catch(() => undefined)); // temp copies; stop() removes them too
  }

  static async start(profile: Profile, settings: LaunchSettings): Promise<BrowserInstance> {
    // Loaded on the first start, not with the plugin: importing playwright-core costs ~0.75 s of CPU, which every
    // process listing the core tools (a gateway, serve mcp, the CLI) paid at start-up though most never open a browser.
    const { chromium } = await import('playwright-core');
    if (profile.kind === 'remote') {
      const browser = await chromium
        .connectOverCDP(profile.cdpUrl, { timeout: LAUNCH_TIMEOUT_MS })
        .catch((error: unknown) => {
          throw new ToolSearchError(
            BrowserErrors.BROWSER_START_FAILED,
            `could not attach to ${profile.cdpUrl} (profile "${profile.name}"): ${message(error)}`,
            { details: { profile: profile.name, cdpUrl: profile.cdpUrl }, cause: error },
          );
        });
      const context = browser.contexts()[0] ?? (await browser.newContext());
      return configure(new BrowserInstance(profile, context, browser), settings);
    }
    const { context, confinement } = await launchLocal(chromium, settings, profile.name).catch((error: unknown) => {
      throw new ToolSearchError(
        BrowserErrors.BROWSER_START_FAILED,
        `Chromium (${settings.executablePath}) did not start for profile "${profile.name}": ${message(error)}`,
        { details: { profile: profile.name }, cause: error },
      );
    });
    return configure(new BrowserInstance(profile, context, undefined, confinement, settings.user), settings);
  }

  /** Local: closes Chromium (every process of it). Remote: disconnects and leaves the browser running. */
  async stop(): Promise<void> {
    if (this.browser)
      await this.browser.close().catch(() => undefined); // stopping: a browser already gone is stopped
    else await this.context.close().catch(() => undefined); // stopping: a context already gone is stopped
    await this.uploads.remove();
  }

  pages(): Page[] {
    return this.context.pages().filter((page) => !page.isClosed());
  }

  current(): Page | undefined {
    if (this.#current && !this.#current.isClosed()) return this.#current;
    return this.pages().at(-1);
  }

  focus(page: Page): void {
    this.#current = page;
  }

  state(page: Page): TabState {
    return this.#watch(page);
  }

  async targetId(page: Page): Promise<string> {
    const state = this.#watch(page);
    if (state.targetId) return state.targetId;
    const session = await this.context.newCDPSession(page);
    try {
      const { targetInfo } = (await session.send('Target.getTargetInfo')) as { targetInfo: { targetId: string } };
      state.targetId = targetInfo.targetId;
      return targetInfo.targetId;
    } finally {
      await session.detach().catch(() => undefined); // cleanup: the CDP session dies with its target anyway
    }
  }

  /** The tab with this targetId (or a unique prefix of it); the current tab when none is given. */
  async page(targetId: string | undefined): Promise<Page> {
    if (!targetId) {
      const page = this.current() ?? (await this.context.newPage());
      return page;
    }
    const matches: Page[] = [];
    for (const page of this.pages()) {
      const id = await this.targetId(page).catch(() => '');
      if (id === targetId) return page;
      if (id.startsWith(targetId)) matches.push(page);
    }
    if (matches.length === 1) return matches[0]!;
    throw new ToolSearchError(
      BrowserErrors.BROWSER_TAB_UNKNOWN,
      `no tab has targetId ${JSON.stringify(targetId.slice(0, 80))}${matches.length > 1 ? ' (the prefix matches several)' : ''}; action "tabs" lists them`,
      { details: { targetId: targetId.slice(0, 80) } },
    );
  }

  #watch(page: Page): TabState {
    let state = this.#tabs.get(page);
    if (state) return state;
    state = { refs: new Map(), console: [], dialogs: [], autoDismissed: 0 };
    this.#tabs.set(page, state);
    const tab = state;
    page.on('console', (entry) => {
      tab.console.push({ type: entry.type(), text: entry.text().slice(0, 4000), at: new Date().toISOString() });
      if (tab.console.length > CONSOLE_KEEP) tab.console.shift();
    });
    page.on('pageerror', (error) => {
      tab.console.push({ type: 'pageerror', text: String(error.message).slice(0, 4000), at: new Date().toISOString() });
      if (tab.console.length > CONSOLE_KEEP) tab.console.shift();
    });
    page.on('dialog', (dialog) => void this.#onDialog(tab, dialog));
    return state;
  }

  async #onDialog(tab: TabState, dialog: Dialog): Promise<void> {
    const record = (handled: DialogEntry['handled']) => {
      tab.dialogs.push({
        type: dialog.type(),
        message: dialog.message().slice(0, 2000),
        handled,
        at: new Date().toISOString(),
      });
      if (tab.dialogs.length > DIALOG_KEEP) tab.dialogs.shift();
    };
    const arm = tab.armed;
    if (arm) {
      tab.armed = undefined;
      record(arm.accept ? 'accepted' : 'dismissed');
      await (arm.accept ? dialog.accept(arm.promptText) : dialog.dismiss()).catch(() => undefined); // the dialog may have closed itself; the outcome is recorded above
      return;
    }
    if (tab.autoDismissed < AUTO_DISMISS) {
      tab.autoDismissed++;
      record('dismissed');
      await dialog.dismiss().catch(() => undefined); // the dialog may have closed itself; the outcome is recorded above
      return;
    }
    // A page that opens dialog after dialog: leave this one open, so the page waits instead of spinning.
    record('open');
    tab.open = dialog;
  }
}

function configure(instance: BrowserInstance, settings: LaunchSettings): BrowserInstance {
  instance.context.setDefaultTimeout(settings.actionTimeoutMs);
  instance.context.setDefaultNavigationTimeout(settings.navigationTimeoutMs);
  return instance;
}

/**
 * Launches a local Chromium on the profile's user data: as `settings.user` through its launcher when set, with
 * Chromium's own sandbox, or without it where user namespaces are off (it still runs as that user then).
 */
async function launchLocal(
  chromium: BrowserType,
  settings: LaunchSettings,
  profile: string,
): Promise<{ context: BrowserContext; confinement: Confinement }> {
  mkdirSync(settings.userDataDir, { recursive: true });
  const { user } = settings;
  const executablePath = user
    ? prepareLauncher({
        chromium: settings.executablePath,
        user,
        userDataDir: settings.userDataDir,
        launchersDir: settings.launchersDir,
        profile,
      })
    : settings.executablePath;
  const launch = (sandbox: boolean) =>
    chromium.launchPersistentContext(settings.userDataDir, {
      executablePath,
      headless: true,
      args: launchArgs(settings, sandbox),
      chromiumSandbox: sandbox,
      timeout: LAUNCH_TIMEOUT_MS,
      // The host decides what its signals mean; the browser ends with it anyway (its DevTools pipe closes).
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      viewport: { width: 1280, height: 800 },
    });
  const uid = user?.uid ?? process.getuid?.() ?? -1;
  if (!user) return { context: await launch(false), confinement: { uid, sandbox: false } };
  try {
    return { context: await launch(true), confinement: { uid, sandbox: true } };
  } catch (error) {
    // Chromium's sandbox cannot be had here ("No usable sandbox": no user namespaces): the uid is the boundary left.
    if (!/sandbox/i.test(errorMessage(error))) throw error;
    return { context: await launch(false), confinement: { uid, sandbox: false } };
  }
}

/**
 * Chromium's arguments. No `--remote-debugging-port`: playwright-core drives it over `--remote-debugging-pipe`, so
 * DevTools (which can open file:// and read what the browser's user can) is reachable by this process alone.
 */
export function launchArgs(settings: Pick<LaunchSettings, 'proxy'>, sandbox = false): string[] {
  const flags = sandbox ? BROWSER_FLAGS.filter((flag) => flag !== '--no-sandbox') : [...BROWSER_FLAGS];
  if (!settings.proxy) return flags;
  return [...flags, `--proxy-server=${settings.proxy.url}`, '--proxy-bypass-list=<-loopback>', NO_WEBRTC_UDP_FLAG];
}

export function message(error: unknown): string {
  return errorMessage(error).split('\n')[0]!.slice(0, 500);
}

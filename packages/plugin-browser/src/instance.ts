/**
 * One running browser for one profile: a local Chromium launched with playwright-core on its own user-data folder
 * (CDP on 127.0.0.1:<cdpPort>), or a remote browser attached over `cdpUrl`. It keeps the tabs (by CDP targetId),
 * each tab's console, and answers JavaScript dialogs so a hostile page cannot stall the process.
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Browser, BrowserContext, Dialog, Page } from 'playwright-core';
import { CHROMIUM_FLAGS } from '@tool-search/chromium';
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import { BrowserErrors } from './errors.js';
import type { EgressProxy } from './egress-proxy.js';
import type { Profile } from './profiles.js';

export interface LaunchSettings {
  readonly executablePath: string;
  readonly userDataDir: string;
  /** Set when pages may reach only public addresses. */
  readonly proxy?: EgressProxy;
  readonly actionTimeoutMs: number;
  readonly navigationTimeoutMs: number;
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

/** The shared headless flags, and WebRTC may not open UDP around the egress proxy. */
export const BROWSER_FLAGS: readonly string[] = [
  ...CHROMIUM_FLAGS,
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

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

  private constructor(
    readonly profile: Profile,
    readonly context: BrowserContext,
    readonly browser: Browser | undefined,
  ) {
    for (const page of context.pages()) this.#watch(page);
    context.on('page', (page) => {
      this.#watch(page);
      this.#current = page;
    });
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
    await assertPortFree(profile.cdpPort, profile.name);
    mkdirSync(settings.userDataDir, { recursive: true });
    const args = [
      ...BROWSER_FLAGS,
      `--remote-debugging-port=${profile.cdpPort}`,
      '--remote-debugging-address=127.0.0.1',
    ];
    if (settings.proxy) args.push(`--proxy-server=${settings.proxy.url}`, '--proxy-bypass-list=<-loopback>');
    const context = await chromium
      .launchPersistentContext(settings.userDataDir, {
        executablePath: settings.executablePath,
        headless: true,
        args,
        timeout: LAUNCH_TIMEOUT_MS,
        // The host decides what its signals mean; the browser ends with it anyway (its DevTools pipe closes).
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        viewport: { width: 1280, height: 800 },
      })
      .catch((error: unknown) => {
        throw new ToolSearchError(
          BrowserErrors.BROWSER_START_FAILED,
          `Chromium (${settings.executablePath}) did not start for profile "${profile.name}": ${message(error)}`,
          { details: { profile: profile.name }, cause: error },
        );
      });
    return configure(new BrowserInstance(profile, context, undefined), settings);
  }

  get cdpUrl(): string {
    return this.profile.kind === 'remote' ? this.profile.cdpUrl : `http://127.0.0.1:${this.profile.cdpPort}`;
  }

  /** Local: closes Chromium (every process of it). Remote: disconnects and leaves the browser running. */
  async stop(): Promise<void> {
    if (this.browser)
      await this.browser.close().catch(() => undefined); // stopping: a browser already gone is stopped
    else await this.context.close().catch(() => undefined); // stopping: a context already gone is stopped
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

async function assertPortFree(port: number, profile: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => {
      reject(
        new ToolSearchError(
          BrowserErrors.BROWSER_START_FAILED,
          `CDP port ${port} of profile "${profile}" is in use by another program; give the profile another cdpPort`,
          { details: { profile, cdpPort: port }, cause: error },
        ),
      );
    });
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

export function message(error: unknown): string {
  return errorMessage(error).split('\n')[0]!.slice(0, 500);
}

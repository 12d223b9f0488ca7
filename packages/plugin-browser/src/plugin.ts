/**
 * `browserPlugin`: the `browser` core tool (`core:core:browser`), a managed Chromium over the Chrome DevTools
 * Protocol with playwright-core. Listed only when `browser.enabled` is not false and a Chromium is found (a
 * diagnostic `TOOL_NOT_CONFIGURED` says why not); every browser it started is closed on `shutdown`.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { isPublicAddress, type AddressAllowed } from '@tool-search/net-guard';
import { BrowserController } from './controller.js';
import { findChromium } from '@tool-search/chromium';
import { browserUser } from './launcher.js';
import { BROWSER_DEFAULTS, checkBrowserConfig, type BrowserConfig } from './options.js';
import { ProfileStore } from './profiles.js';
import { browserInputSchema } from './schema.js';

export const BROWSER_PLUGIN_NAME = '@tool-search/plugin-browser';
export const BROWSER_TOOL_ID = 'core:core:browser';

export interface BrowserPluginOptions {
  /** `browser` from the config. */
  readonly browser?: BrowserConfig;
  /** Profiles, user data and media (screenshots, PDFs) live here (default `$XDG_STATE_HOME/tool-search/browser`, else `~/.local/state/tool-search/browser`). */
  readonly stateDir?: string;
  /** `upload` sends files from this folder only (default the working folder). */
  readonly workspace?: string;
  /** Which addresses pages may reach when `allowPrivate` is off (default public unicast; tests widen it). */
  readonly addressAllowed?: AddressAllowed;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * When this process is root: the uid (and gid) Chromium runs as, with its own sandbox where user namespaces allow
   * (default 65533, see launcher.ts); `false` runs it as root with `--no-sandbox`. Needs bwrap and setpriv.
   */
  readonly browserUid?: number | false;
}

export function browserPlugin(options: BrowserPluginOptions = {}): KernelPlugin {
  const config = checkBrowserConfig(options.browser);
  const env = options.env ?? process.env;
  const chromium =
    config.enabled === false
      ? { missing: 'browser.enabled is false' }
      : findChromium(config.executablePath, env, 'browser.executablePath');
  let controller: BrowserController | undefined;
  const runAs = 'path' in chromium ? browserUser(options.browserUid, env) : undefined;
  if ('path' in chromium) {
    const stateDir =
      options.stateDir ?? join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'tool-search', 'browser');
    const defaultProfile = config.defaultProfile ?? BROWSER_DEFAULTS.defaultProfile;
    controller = new BrowserController({
      executablePath: chromium.path,
      stateDir,
      workspace: options.workspace ?? process.cwd(),
      defaultProfile,
      profiles: new ProfileStore(stateDir, defaultProfile, config.profiles),
      allowPrivate: config.allowPrivate === true,
      addressAllowed: options.addressAllowed ?? isPublicAddress,
      evaluateEnabled: config.evaluateEnabled ?? BROWSER_DEFAULTS.evaluateEnabled,
      actionTimeoutMs: config.actionTimeoutMs ?? BROWSER_DEFAULTS.actionTimeoutMs,
      navigationTimeoutMs: config.navigationTimeoutMs ?? BROWSER_DEFAULTS.navigationTimeoutMs,
      ...(runAs && 'user' in runAs ? { user: runAs.user } : {}),
    });
  }
  const tools = controller ? [browserTool(controller)] : [];

  return {
    name: BROWSER_PLUGIN_NAME,
    apply({ hooks, logger }) {
      if (runAs && 'root' in runAs) logger.warn(`browser: Chromium will run as root with --no-sandbox: ${runAs.root}`);
      hooks.listTools.tap((sink) => {
        sink.add(tools);
        if ('missing' in chromium) {
          sink.diagnostic({
            code: ErrorCode.TOOL_NOT_CONFIGURED,
            level: 'info',
            message: `browser is not listed: ${chromium.missing}`,
            toolId: BROWSER_TOOL_ID,
          });
        }
      });
      hooks.shutdown.tapPromise(async () => {
        await controller?.close();
      });
    },
  };
}

function browserTool(controller: BrowserController): ToolDefinition {
  return {
    name: 'browser',
    source: 'core',
    owner: 'core',
    description:
      'Control a real headless Chromium: status/start, then open or navigate a tab, snapshot the page (refs like e12), act on refs (click, type, fill, press, select, hover, drag, wait…), screenshot or pdf; tabs, console, upload, dialog and profiles too. Pages reach public addresses only unless browser.allowPrivate.',
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    inputSchema: browserInputSchema,
    execute: (args, ctx) => controller.handle(args, ctx.signal),
  };
}

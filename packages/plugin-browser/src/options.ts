/**
 * `browser` as OpenClaw spells it (`enabled`, `defaultProfile`, `executablePath`, `profiles.<name>.cdpPort|cdpUrl|color`),
 * plus `allowPrivate` (the address rule of `web_fetch`), `evaluateEnabled` and timeouts; checked with the kernel's
 * JSON Schema validator. Unknown OpenClaw keys are accepted and have no effect.
 */
import { ConfigError, ErrorCode, type JsonSchema, valueIssues } from '@tool-search/kernel';

export interface BrowserProfileConfig {
  /**
   * Local profile: its CDP port number (default: the first free one in 18800-18899), kept for OpenClaw configs and
   * reported; the managed browser is driven over its DevTools pipe and listens on no port.
   */
  readonly cdpPort?: number;
  /** Remote profile: attach to a browser already running there (attach-only: never launched, stopped or reset). */
  readonly cdpUrl?: string;
  readonly color?: string;
}

export interface BrowserConfig {
  readonly enabled?: boolean;
  readonly defaultProfile?: string;
  /** Chromium to launch (default: `chromium`, `chromium-browser`, `google-chrome-stable` or `google-chrome` on PATH). */
  readonly executablePath?: string;
  /** Let pages reach private, loopback and link-local addresses (as `tools.web.fetch.allowPrivate` does for web_fetch). */
  readonly allowPrivate?: boolean;
  /** Offer `act` kind `evaluate` (JavaScript chosen by the model, run in the page). */
  readonly evaluateEnabled?: boolean;
  readonly profiles?: Readonly<Record<string, BrowserProfileConfig>>;
  /** Longest wait for one action (click, snapshot, screenshot…), default 20000. */
  readonly actionTimeoutMs?: number;
  /** Longest wait for a page to load on `open`/`navigate`, default 30000 (the tab stays open, `loaded: false`). */
  readonly navigationTimeoutMs?: number;
}

export const BROWSER_DEFAULTS = {
  /** The Tools document's default (`browser.defaultProfile` "defaults to chrome"); a managed local profile here. */
  defaultProfile: 'chrome',
  actionTimeoutMs: 20_000,
  navigationTimeoutMs: 30_000,
  evaluateEnabled: true,
} as const;

export const CDP_PORT_RANGE = { first: 18800, last: 18899 } as const;
export const PROFILE_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

const cdpUrl = { type: 'string', pattern: '^(https?|wss?)://' } as const;
/** JSON Schema of `browser` (exported for its tests). */
export const browserConfigSchema: JsonSchema = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean' },
    defaultProfile: { type: 'string', pattern: PROFILE_NAME.source },
    executablePath: { type: 'string', minLength: 1 },
    allowPrivate: { type: 'boolean' },
    evaluateEnabled: { type: 'boolean' },
    actionTimeoutMs: { type: 'integer', minimum: 100, maximum: 600_000 },
    navigationTimeoutMs: { type: 'integer', minimum: 100, maximum: 600_000 },
    profiles: {
      type: 'object',
      propertyNames: { pattern: PROFILE_NAME.source },
      additionalProperties: {
        type: 'object',
        properties: { cdpPort: { type: 'integer', minimum: 1024, maximum: 65535 }, cdpUrl, color: { type: 'string' } },
        not: { required: ['cdpPort', 'cdpUrl'] },
      },
    },
  },
};

/** Throws a `ConfigError` naming the `/browser/...` path and the rule. */
export function checkBrowserConfig(config: unknown): BrowserConfig {
  const [issue] = valueIssues(browserConfigSchema, config ?? {});
  if (issue) {
    const path = `/browser${issue.path === '/' ? '' : issue.path}`;
    throw new ConfigError(path, issue.rule, `${path} ${issue.message}`, { code: ErrorCode.CONFIG_INVALID });
  }
  return (config ?? {}) as BrowserConfig;
}

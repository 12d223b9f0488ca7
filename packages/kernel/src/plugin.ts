/**
 * What a plugin is and what it receives: tap-only hook facades (no `call`,
 * no `promise`) and a logger scoped to its name. Every tap a plugin makes
 * carries the plugin's name, so diagnostics can say who failed.
 */
import type { HookMap } from 'tapable';
import { ErrorCode, ToolSearchError } from './errors.js';
import type { KernelHooks } from './hooks.js';

export interface KernelPlugin {
  /** Unique; by convention the npm package name. Used as the tap name everywhere. */
  readonly name: string;
  /** Plugins that must be registered before this one. */
  readonly dependsOn?: readonly string[];
  apply(api: PluginApi): void;
  /** CLI subcommands: `tool-search <cliName> <command>`; listed by `tool-search --help`. */
  readonly commands?: PluginCommands;
}

/** Subcommands a plugin adds to the `tool-search` CLI. */
export interface PluginCommands {
  /** The first word: `tool-search <cliName> …` (lowercase letters, digits, dashes). */
  readonly cliName: string;
  readonly description: string;
  readonly list: readonly PluginCommand[];
}

export interface PluginCommand {
  readonly name: string;
  readonly description: string;
  /** Receives the words after the command name; returns the exit code. */
  run(
    argv: readonly string[],
    io: { stdout(text: string): void; stderr(text: string): void },
  ): Promise<number> | number;
}

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export interface TapOptions {
  /** Lower runs first; see `STAGE`. */
  readonly stage?: number;
}

type Args<H> = H extends { call(...args: infer A): unknown }
  ? A
  : H extends { promise(...args: infer A): unknown }
    ? A
    : never;
type Result<H> = H extends { promise(...args: never[]): Promise<infer R> }
  ? R
  : H extends { call(...args: never[]): infer R }
    ? R
    : never;
type Interceptor<H> = H extends { intercept(interceptor: infer I): void } ? I : never;
type IsAsync<H> = H extends { call(...args: never[]): unknown } ? false : true;

/** The function a plugin taps into hook `H` with (`tap`; `tapPromise` returns a promise of the same). */
export type HookTapFn<H> = (...args: Args<H>) => Result<H>;

/** A tap-only view of one hook. Async hooks take `tap` or `tapPromise`; `tapAsync` is refused. */
export type HookFacade<H> = {
  tap(fn: (...args: Args<H>) => Result<H>): void;
  tap(options: TapOptions, fn: (...args: Args<H>) => Result<H>): void;
  intercept(interceptor: Interceptor<H>): void;
  isUsed(): boolean;
} & (IsAsync<H> extends true
  ? {
      tapPromise(fn: (...args: Args<H>) => Promise<Result<H>>): void;
      tapPromise(options: TapOptions, fn: (...args: Args<H>) => Promise<Result<H>>): void;
    }
  : unknown);

export interface HookMapFacade<H> {
  for(key: string): HookFacade<H>;
  intercept(interceptor: Parameters<HookMap<H>['intercept']>[0]): void;
}

export type HookFacades = {
  [K in keyof KernelHooks]: KernelHooks[K] extends HookMap<infer H> ? HookMapFacade<H> : HookFacade<KernelHooks[K]>;
};

export interface PluginApi {
  readonly name: string;
  readonly hooks: HookFacades;
  readonly logger: Logger;
}

/** Identity helper that types a plugin object. */
export function definePlugin(plugin: KernelPlugin): KernelPlugin {
  return plugin;
}

interface RawHook {
  tap(options: { name: string; stage?: number }, fn: (...args: never[]) => unknown): void;
  tapPromise?: (options: { name: string; stage?: number }, fn: (...args: never[]) => Promise<unknown>) => void;
  intercept(interceptor: unknown): void;
  isUsed(): boolean;
}

function hookFacade(hook: RawHook, pluginName: string): object {
  const tapOptions = (options: TapOptions | undefined) => ({
    name: pluginName,
    ...(options?.stage !== undefined ? { stage: options.stage } : {}),
  });
  const split = (a: unknown, b: unknown) =>
    (typeof a === 'function' ? [undefined, a] : [a as TapOptions, b]) as [
      TapOptions | undefined,
      (...args: never[]) => unknown,
    ];
  const facade: Record<string, unknown> = {
    tap: (a: unknown, b?: unknown) => {
      const [options, fn] = split(a, b);
      hook.tap(tapOptions(options), fn);
    },
    intercept: (interceptor: unknown) => hook.intercept(interceptor),
    isUsed: () => hook.isUsed(),
    tapAsync: () => {
      throw new ToolSearchError(
        ErrorCode.HOOK_STYLE_UNSUPPORTED,
        `Plugin "${pluginName}" used tapAsync; use tap or tapPromise instead`,
        {
          plugin: pluginName,
        },
      );
    },
  };
  if (hook.tapPromise) {
    const tapPromise = hook.tapPromise.bind(hook);
    facade.tapPromise = (a: unknown, b?: unknown) => {
      const [options, fn] = split(a, b);
      tapPromise(tapOptions(options), fn as (...args: never[]) => Promise<unknown>);
    };
  }
  return Object.freeze(facade);
}

/** Builds the facades handed to one plugin. */
export function createHookFacades(hooks: KernelHooks, pluginName: string): HookFacades {
  const facades: Record<string, unknown> = {};
  for (const [key, hook] of Object.entries(hooks)) {
    if (typeof (hook as { for?: unknown }).for === 'function') {
      const map = hook as unknown as HookMap<RawHook>;
      facades[key] = Object.freeze({
        for: (mode: string) => hookFacade(map.for(mode), pluginName),
        intercept: (interceptor: Parameters<HookMap<RawHook>['intercept']>[0]) => map.intercept(interceptor),
      });
    } else {
      facades[key] = hookFacade(hook as unknown as RawHook, pluginName);
    }
  }
  return Object.freeze(facades) as HookFacades;
}

export const silentLogger: Logger = Object.freeze({ debug() {}, info() {}, warn() {}, error() {} });

export function scopeLogger(logger: Logger, pluginName: string): Logger {
  const scoped = (level: keyof Logger) => (message: string, data?: Record<string, unknown>) =>
    logger[level](`[${pluginName}] ${message}`, data);
  return Object.freeze({ debug: scoped('debug'), info: scoped('info'), warn: scoped('warn'), error: scoped('error') });
}

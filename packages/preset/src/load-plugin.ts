/**
 * Loading one plugin module named under `plugins` in the operator's config:
 * resolve it like Node's `import` would from the config's folder, import it,
 * check the kernel range it declares, validate its options with the schema it
 * exports, then call its factory. Every failure names the module and the
 * reason; nothing here is reachable from a request, an MCP server or a client.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve as resolveModule } from 'import-meta-resolve';
import semver from 'semver';
import {
  compileToolSchema,
  ConfigError,
  editDistance,
  ErrorCode,
  errorMessage,
  KERNEL_VERSION,
  surelyValid,
  ToolSearchError,
  toSchemaIssues,
  type JsonSchema,
  type KernelPlugin,
  type PluginApi,
} from '@tool-search/kernel';
import { PresetErrors } from './errors.js';
import {
  gatewayPagesOf,
  PLUGIN_MODULE_WANTS,
  type PluginModule,
  type PluginModuleHost,
  type PluginModuleWant,
} from './plugin-module.js';

/** One plugin module the config loaded: shown by `tools list` and `config check`. */
export interface LoadedPluginModule {
  /** The key under `plugins` (a package name or a path). */
  readonly id: string;
  /** The plugin's `name` (its tap name). */
  readonly name: string;
  /** The file the module was imported from. */
  readonly path: string;
  /** The kernel range it declares, and where it declared it. */
  readonly kernelRange: string;
  readonly kernelRangeFrom: 'kernelRange export' | 'package.json';
}

const KERNEL_PACKAGE = '@tool-search/kernel';

/** Loads the module `id` (a key under `plugins`) from `baseDir`; `builtins` are the ids a typo may have meant. */
export async function loadPluginModule(
  id: string,
  options: unknown,
  baseDir: string,
  builtins: readonly string[] = [],
  host: PluginModuleHost = {},
): Promise<{ plugin: KernelPlugin; loaded: LoadedPluginModule }> {
  const path = resolvePath(id, baseDir, builtins);
  const mod = await importModule(id, path);
  const factory = typeof mod.default === 'function' ? mod.default : mod.plugin;
  if (typeof factory !== 'function') {
    throw loadError(
      id,
      path,
      'exports no plugin factory: export default (or export `plugin`) a function (options) => KernelPlugin',
    );
  }
  const range = kernelRange(id, path, mod);
  if (!semver.satisfies(KERNEL_VERSION, range.range, { includePrerelease: true })) {
    throw new ConfigError(
      configPath(id),
      'kernelRange',
      `Plugin module "${id}" (${path}) needs ${KERNEL_PACKAGE} ${range.range} (from its ${range.from}), but the running kernel is ${KERNEL_VERSION}; install a version of the plugin built for ${KERNEL_VERSION}`,
      {
        code: PresetErrors.PLUGIN_KERNEL_MISMATCH,
        details: { module: id, file: path, kernelRange: range.range, kernelVersion: KERNEL_VERSION },
      },
    );
  }
  checkOptions(id, path, mod.optionsSchema, options);
  const wants = wantsOf(id, path, mod.wants);
  let plugin: unknown;
  try {
    // One argument unless the module opted in: a factory's own optional second parameter never receives host values.
    plugin = await (wants === undefined
      ? (factory as (options: unknown) => unknown)(options)
      : (factory as (options: unknown, host: PluginModuleHost) => unknown)(options, pick(host, wants)));
  } catch (error) {
    throw loadError(id, path, `its factory threw: ${errorMessage(error)}`, error);
  }
  const candidate = plugin as Partial<KernelPlugin> | null | undefined;
  if (!candidate || typeof candidate.name !== 'string' || !candidate.name || typeof candidate.apply !== 'function') {
    throw new ConfigError(
      configPath(id),
      'plugin',
      `Plugin module "${id}" (${path}): its factory returned no plugin (it needs a non-empty \`name\` and an \`apply(api)\` function)`,
      {
        code: ErrorCode.PLUGIN_INVALID,
        details: { module: id, file: path },
      },
    );
  }
  return {
    plugin: namingModuleOnFailure(candidate as KernelPlugin, id, path),
    loaded: { id, name: candidate.name, path, kernelRange: range.range, kernelRangeFrom: range.from },
  };
}

/** The module's `wants`, checked: an array of known names (undefined when it does not opt in). */
function wantsOf(id: string, path: string, wants: unknown): readonly PluginModuleWant[] | undefined {
  if (wants === undefined) return undefined;
  const known: readonly string[] = PLUGIN_MODULE_WANTS;
  if (!Array.isArray(wants) || wants.some((want) => typeof want !== 'string' || !known.includes(want))) {
    throw loadError(
      id,
      path,
      `exports wants = ${JSON.stringify(wants)}; it must be an array of ${PLUGIN_MODULE_WANTS.map((want) => JSON.stringify(want)).join(', ')}`,
    );
  }
  return wants as PluginModuleWant[];
}

function pick(host: PluginModuleHost, wants: readonly PluginModuleWant[]): PluginModuleHost {
  const picked: { -readonly [K in keyof PluginModuleHost]: PluginModuleHost[K] } = {};
  for (const want of wants) if (host[want] !== undefined) picked[want] = host[want];
  return Object.freeze(picked);
}

/** The file the module `id` resolves to from `baseDir`, without importing it; undefined when it does not resolve. */
export function pluginModuleFile(id: string, baseDir: string): string | undefined {
  try {
    return resolvePath(id, baseDir, []);
  } catch {
    return undefined; // loading it reports why, with the hints
  }
}

function resolvePath(id: string, baseDir: string, builtins: readonly string[]): string {
  let url: string;
  try {
    url = resolveModule(id, pathToFileURL(join(baseDir, 'tool-search.json')).href);
  } catch (error) {
    const builtin = builtins.find((known) => editDistance(id, known) <= 2);
    const hint = builtin
      ? `did you mean the built-in plugin "${builtin}"? (built-in: ${builtins.join(', ')})`
      : id.startsWith('.') || id.startsWith('/')
        ? 'check the path (relative paths start from the config file’s folder)'
        : `install it there (npm install ${id}) or use a built-in plugin (${builtins.join(', ')})`;
    throw loadError(
      id,
      undefined,
      `is not a built-in plugin and cannot be found from ${baseDir}: ${errorMessage(error)}; ${hint}`,
      error,
      builtin ? { didYouMean: builtin } : {},
    );
  }
  if (!url.startsWith('file:')) throw loadError(id, undefined, `resolves to ${url}, which is not a file`);
  const path = fileURLToPath(url);
  // A relative path resolves without looking at the disk.
  if (!existsSync(path))
    throw loadError(
      id,
      path,
      `is not a built-in plugin and there is no such file; check the path (relative paths start from the config file’s folder, ${baseDir})`,
    );
  return path;
}

async function importModule(id: string, path: string): Promise<PluginModule> {
  try {
    return (await import(pathToFileURL(path).href)) as PluginModule;
  } catch (error) {
    throw loadError(id, path, `importing it failed: ${errorMessage(error)}`, error);
  }
}

function kernelRange(
  id: string,
  path: string,
  mod: PluginModule,
): { range: string; from: LoadedPluginModule['kernelRangeFrom'] } {
  const declared =
    mod.kernelRange !== undefined
      ? { range: mod.kernelRange, from: 'kernelRange export' as const }
      : fromPackageJson(path);
  if (!declared) {
    throw loadError(
      id,
      path,
      `declares no ${KERNEL_PACKAGE} range: export const kernelRange = '^${KERNEL_VERSION}' or add it to its package.json peerDependencies`,
    );
  }
  if (typeof declared.range !== 'string' || semver.validRange(declared.range) === null) {
    throw loadError(
      id,
      path,
      `declares the kernel range ${JSON.stringify(declared.range)} (from its ${declared.from}), which is not a semver range`,
    );
  }
  return declared as { range: string; from: LoadedPluginModule['kernelRangeFrom'] };
}

/** The kernel dependency in the nearest package.json above the module file. */
function fromPackageJson(path: string): { range: unknown; from: 'package.json' } | undefined {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    let text: string | undefined;
    try {
      text = readFileSync(join(dir, 'package.json'), 'utf8');
    } catch {
      // no package.json here: keep walking up
    }
    if (text !== undefined) {
      const pkg = JSON.parse(text) as {
        peerDependencies?: Record<string, unknown>;
        dependencies?: Record<string, unknown>;
      };
      const range = pkg.peerDependencies?.[KERNEL_PACKAGE] ?? pkg.dependencies?.[KERNEL_PACKAGE];
      return range === undefined ? undefined : { range, from: 'package.json' };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The JSON pointer of the plugin's entry in the config. */
function configPath(id: string): string {
  return `/plugins/${id.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function checkOptions(id: string, path: string, schema: unknown, options: unknown): void {
  const at = configPath(id);
  if (schema === undefined) {
    if (typeof options === 'object' && options !== null && Object.keys(options).length === 0) return;
    throw new ConfigError(
      at,
      'optionsSchema',
      `Plugin module "${id}" (${path}) exports no optionsSchema, so it takes no options; write {} for it`,
      {
        code: ErrorCode.OPTIONS_INVALID,
        details: { module: id, file: path },
      },
    );
  }
  if (surelyValid(schema as JsonSchema, options)) return;
  const validate = compileToolSchema(schema as JsonSchema);
  if (typeof validate !== 'function')
    throw loadError(id, path, `exports an optionsSchema that is not valid JSON Schema: ${validate.message}`);
  if (validate(options)) return;
  const issues = toSchemaIssues(validate.errors).map((issue) => ({
    ...issue,
    path: `${at}${issue.path === '/' ? '' : issue.path}`,
  }));
  const lines = issues.map((issue) => `  ${issue.path}: ${issue.message} (rule ${issue.rule})`);
  throw new ConfigError(
    issues[0]!.path,
    issues[0]!.rule,
    `Options of plugin module "${id}" (${path}) are invalid:\n${lines.join('\n')}`,
    {
      code: ErrorCode.OPTIONS_INVALID,
      details: { module: id, file: path, errors: issues },
    },
  );
}

/** A throw inside the plugin's `apply` names the module it came from. */
function namingModuleOnFailure(plugin: KernelPlugin, id: string, path: string): KernelPlugin {
  const gatewayPages = gatewayPagesOf(plugin);
  return {
    name: plugin.name,
    ...(plugin.dependsOn ? { dependsOn: plugin.dependsOn } : {}),
    ...(plugin.commands ? { commands: plugin.commands } : {}),
    ...(gatewayPages ? { gatewayPages } : {}),
    apply(api: PluginApi) {
      try {
        plugin.apply(api);
      } catch (error) {
        if (ToolSearchError.isInstance(error)) throw error;
        throw loadError(id, path, `its apply() threw: ${errorMessage(error)}`, error);
      }
    },
  };
}

function loadError(
  id: string,
  path: string | undefined,
  reason: string,
  cause?: unknown,
  extra: Record<string, unknown> = {},
): ConfigError {
  return new ConfigError(configPath(id), 'loadable', `Plugin module "${id}"${path ? ` (${path})` : ''} ${reason}`, {
    code: PresetErrors.PLUGIN_LOAD_FAILED,
    ...(cause !== undefined ? { cause } : {}),
    details: { module: id, ...(path ? { file: path } : {}), ...extra },
  });
}

/**
 * The heavy capabilities the preset loads only when a config enables them. Each is an optional peer dependency of
 * `@tool-search/preset` (installed by whoever wants it), so a user of one framework adapter with one MCP server does
 * not download a browser driver, a PDF engine, provider SDKs or a tokenizer. When a config enables one whose package is
 * missing, the core tool is not listed and a TOOL_NOT_CONFIGURED diagnostic says `npm install <package>`; a capability
 * the process itself needs (the gateway, `serve mcp`, Redis state, OTLP export, embeddings) throws
 * PRESET_CAPABILITY_MISSING with the same line.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ErrorCode, type KernelPlugin, ToolSearchError } from '@tool-search/kernel';
import { PresetErrors } from './errors.js';

/** The optional packages, by what they give (the core tools, the front ends, their libraries). */
export const OPTIONAL_CAPABILITIES = Object.freeze({
  browser: '@tool-search/plugin-browser',
  pdf: '@tool-search/plugin-pdf',
  image: '@tool-search/plugin-image',
  web: '@tool-search/plugin-web',
  gateway: '@tool-search/gateway',
  mcpServer: '@tool-search/mcp-server',
  metrics: '@tool-search/metrics',
  otlp: '@tool-search/otel-export',
  embeddings: 'openai',
  redis: '@redis/client',
  tokenizer: 'gpt-tokenizer',
} as const);

export type CapabilityPackage = (typeof OPTIONAL_CAPABILITIES)[keyof typeof OPTIONAL_CAPABILITIES];

/**
 * Whether `pkg` is installed where the preset's `import()` looks (the `node_modules` folders above `from`), without
 * loading it or a module resolver: `tools list` pays for this on every start.
 */
export function capabilityInstalled(pkg: CapabilityPackage, from: string = import.meta.url): boolean {
  const paths = createRequire(from).resolve.paths(pkg) ?? [];
  return paths.some((dir) => existsSync(join(dir, pkg, 'package.json')));
}

/** The error for a capability `what` needs whose package is not installed. */
export function capabilityMissing(pkg: CapabilityPackage, what: string, cause?: unknown): ToolSearchError {
  return new ToolSearchError(
    PresetErrors.PRESET_CAPABILITY_MISSING,
    `${what} needs ${pkg}, which is not installed; install it beside @tool-search/preset: npm install ${pkg}`,
    { ...(cause !== undefined ? { cause } : {}), details: { package: pkg, install: `npm install ${pkg}` } },
  );
}

/** Throws PRESET_CAPABILITY_MISSING unless `pkg` is installed. */
export function requireCapability(pkg: CapabilityPackage, what: string): void {
  if (!capabilityInstalled(pkg)) throw capabilityMissing(pkg, what);
}

/** A core tool the config enables but whose package is missing: one diagnostic per tool, listing nothing. */
export interface MissingCoreTool {
  readonly tool: string;
  readonly pkg: CapabilityPackage;
}

export function missingCapabilitiesPlugin(missing: readonly MissingCoreTool[]): KernelPlugin[] {
  if (missing.length === 0) return [];
  return [
    {
      name: '@tool-search/preset/missing-capabilities',
      apply({ hooks }) {
        hooks.listTools.tap((sink) => {
          for (const { tool, pkg } of missing)
            sink.diagnostic({
              code: ErrorCode.TOOL_NOT_CONFIGURED,
              level: 'warning',
              message: `${tool} is not listed: its package ${pkg} is not installed; npm install ${pkg}`,
              toolId: `core:core:${tool}`,
              details: { tool, package: pkg, install: `npm install ${pkg}` },
            });
        });
      },
    },
  ];
}

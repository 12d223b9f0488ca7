/**
 * Payload: the bytes and tokens of the first provider request a gateway would
 * send (packages/gateway/src/turn.ts: `{ model, messages: [system?, user], tools }`)
 * for each exposure mode, over the fake catalog at several sizes and the real
 * MCP catalog snapshot.
 */
import type { ToolSearchConfig } from '@tool-search/config';
import type { KernelPlugin } from '@tool-search/kernel';
import { readSnapshotFile, snapshotPlugin } from '@tool-search/plugin-snapshot';
import { createToolSearchKernel } from '@tool-search/preset';
import { providerExposure } from '@tool-search/provider-formats';
import { createTokenCounter } from '@tool-search/telemetry';
import { fakePluginCount } from './catalogs.js';

export const MODES = ['direct', 'code', 'tools', 'directory'] as const;
export type Mode = (typeof MODES)[number];

export const REQUEST_MODEL = 'gpt-4.1';
export const USER_MESSAGE = 'Find the open invoices from last week and email a summary to the finance team.';

export interface ModePayload {
  readonly mode: Mode;
  /** The mode the kernel actually exposed (a mode may fall back, e.g. code without a sandbox). */
  readonly exposed: string;
  readonly tools: number;
  readonly requestBytes: number;
  readonly requestTokens: number;
  /** requestBytes / direct requestBytes. */
  readonly ratioToDirect: number;
}

export interface CatalogPayload {
  readonly label: string;
  /** Tools in the run's catalog (what search and direct exposure draw from). */
  readonly catalogSize: number;
  /** Tools in the snapshot file, before the kernel checks them (real catalog only). */
  readonly sourceTools?: number;
  readonly modes: readonly ModePayload[];
}

const tokens = createTokenCounter('o200k_base');

export async function measureFakePayload(total: number): Promise<CatalogPayload> {
  const config: ToolSearchConfig = { plugins: { 'fake-catalog': { tools: fakePluginCount(total), core: true } } };
  return measure(`fake ${total}`, config, []);
}

export async function measureSnapshotPayload(label: string, file: string): Promise<CatalogPayload> {
  // An empty fake catalog keeps the preset from adding its default 1,000 tools: the snapshot is the only source.
  const config: ToolSearchConfig = { plugins: { 'fake-catalog': { tools: 0, core: false } } };
  const snapshot = readSnapshotFile(file);
  return { ...(await measure(label, config, [snapshotPlugin({ snapshot })])), sourceTools: snapshot.tools.length };
}

async function measure(
  label: string,
  config: ToolSearchConfig,
  plugins: readonly KernelPlugin[],
): Promise<CatalogPayload> {
  const { kernel } = await createToolSearchKernel(config, { plugins });
  try {
    const run = await kernel.createRun({ provider: 'openai', model: REQUEST_MODEL });
    const rows: Omit<ModePayload, 'ratioToDirect'>[] = [];
    for (const mode of MODES) {
      const exposure = providerExposure(await run.exposure(mode));
      const body = requestBody(exposure.system, exposure.toOpenAI());
      rows.push({
        mode,
        exposed: exposure.mode,
        tools: exposure.tools.length,
        requestBytes: Buffer.byteLength(body),
        requestTokens: await tokens.count(body),
      });
    }
    await run.close();
    const direct = rows.find((row) => row.mode === 'direct')!.requestBytes;
    return {
      label,
      catalogSize: run.catalog.length,
      modes: rows.map((row) => ({ ...row, ratioToDirect: row.requestBytes / direct })),
    };
  } finally {
    await kernel.close();
  }
}

/** The JSON body of the first request, as the gateway builds it. */
export function requestBody(system: string, tools: readonly unknown[]): string {
  const messages = [...(system ? [{ role: 'system', content: system }] : []), { role: 'user', content: USER_MESSAGE }];
  return JSON.stringify({ model: REQUEST_MODEL, messages, ...(tools.length ? { tools } : {}) });
}

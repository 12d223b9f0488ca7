import { describe, expect, it } from 'vitest';
import { cli, smallCatalog } from './helpers.js';

interface ExposureJson {
  mode: string;
  format: string;
  tools: { type?: string; function?: { name: string }; name?: string; input_schema?: unknown }[];
  system: string;
  bytes: { tools: number; system: number; total: number };
}

async function exposure(args: string[], cwd: string): Promise<ExposureJson> {
  const { code, stdout, stderr } = await cli(['exposure', ...args, '--json'], cwd);
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as ExposureJson;
}

const small = smallCatalog(5);
const large = smallCatalog(300);

describe('exposure', () => {
  it('prints the tools, the system text and their byte sizes', async () => {
    const shown = await exposure(['--mode', 'tools'], small);
    expect(shown.mode).toBe('tools');
    expect(shown.bytes.tools).toBe(Buffer.byteLength(JSON.stringify(shown.tools)));
    expect(shown.bytes.system).toBe(Buffer.byteLength(shown.system));
    expect(shown.bytes.total).toBe(shown.bytes.tools + shown.bytes.system);
  });

  it('direct mode declares every catalog tool', async () => {
    const shown = await exposure(['--mode', 'direct'], small);
    expect(shown.tools.map((tool) => tool.function?.name)).toContain('fake_plugin_tool_0005');
    expect(shown.tools).toHaveLength(30);
  });

  it('prints Anthropic tools with --format anthropic', async () => {
    const shown = await exposure(['--mode', 'direct', '--format', 'anthropic'], small);
    expect(shown.tools[0]).toHaveProperty('input_schema');
    expect(shown.tools[0]).not.toHaveProperty('function');
  });

  it('code mode is far smaller than direct, and its size does not grow with the catalog', async () => {
    const codeSmall = await exposure(['--mode', 'code'], small);
    const codeLarge = await exposure(['--mode', 'code'], large);
    const directLarge = await exposure(['--mode', 'direct'], large);
    expect(codeLarge.mode).toBe('code');
    expect(codeLarge.bytes.total).toBe(codeSmall.bytes.total);
    expect(codeLarge.bytes.total * 10).toBeLessThan(directLarge.bytes.total);
  });

  it('prints sizes in text mode', async () => {
    const { code, stdout } = await cli(['exposure', '--mode', 'code'], small);
    expect(code).toBe(0);
    expect(stdout).toMatch(/bytes: tools \d+ \+ system \d+ = \d+/);
  });

  it('exits 2 for an unknown mode', async () => {
    expect((await cli(['exposure', '--mode', 'everything'], small)).code).toBe(2);
  });
});

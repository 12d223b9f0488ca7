import { describe, expect, it } from 'vitest';
import { byteSize, fakeToolName, generateFakeTool } from '../src/index.js';

const sizes = Array.from({ length: 1000 }, (_, i) => byteSize(generateFakeTool(i + 1, 1))).sort((a, b) => a - b);
const quantile = (q: number) => sizes[Math.floor(q * (sizes.length - 1))]!;

describe('generateFakeTool', () => {
  it('names tools fake_plugin_tool_0001 onward', () => {
    expect(fakeToolName(1)).toBe('fake_plugin_tool_0001');
    expect(generateFakeTool(42, 1).name).toBe('fake_plugin_tool_0042');
  });

  it('is deterministic for a seed and index', () => {
    expect(generateFakeTool(7, 1)).toEqual(generateFakeTool(7, 1));
  });

  it('changes with the seed', () => {
    expect(generateFakeTool(7, 2).description).not.toBe(generateFakeTool(7, 1).description);
  });

  it('keeps the median JSON size near real MCP tools (about 950 bytes)', () => {
    expect(quantile(0.5)).toBeGreaterThan(800);
    expect(quantile(0.5)).toBeLessThan(1100);
  });

  it('has a long right tail like real catalogs', () => {
    expect(quantile(0.9)).toBeGreaterThan(2 * quantile(0.5));
    expect(quantile(0.1)).toBeLessThan(0.6 * quantile(0.5));
  });

  it('covers many domains so search has something to rank', () => {
    const products = new Set(
      Array.from(
        { length: 200 },
        (_, i) => generateFakeTool(i + 1, 1).description.match(/in ([A-Z][\w]+ ?[A-Z]?\w*)/)?.[1],
      ),
    );
    expect(products.size).toBeGreaterThan(15);
  });

  it('marks delete tools destructive', () => {
    const tools = Array.from({ length: 200 }, (_, i) => generateFakeTool(i + 1, 1));
    const deletes = tools.filter((tool) => tool.description.startsWith('Permanently delete'));
    expect(deletes.length).toBeGreaterThan(0);
    expect(deletes.every((tool) => tool.annotations.destructiveHint === true)).toBe(true);
  });
});

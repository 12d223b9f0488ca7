import { describe, expect, it } from 'vitest';
import { jsonToolResult, toolResultText } from '../src/index.js';

describe('toolResultText', () => {
  it('joins text parts, shows resources by text or uri and other parts by type', () => {
    const text = toolResultText({
      content: [
        { type: 'text', text: 'one' },
        { type: 'resource', resource: { uri: 'file:///a', text: 'body' } },
        { type: 'resource', resource: { uri: 'file:///b' } },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    });
    expect(text).toBe('one\nbody\nfile:///b\n[image]');
  });

  it('falls back to the structured content as JSON, indented on request', () => {
    expect(toolResultText({ content: [], structuredContent: { a: 1 } })).toBe('{"a":1}');
    expect(toolResultText({ content: [], structuredContent: { a: 1 } }, { indent: 2 })).toBe('{\n  "a": 1\n}');
    expect(toolResultText({ content: [] })).toBe('');
  });
});

describe('jsonToolResult', () => {
  it('carries the value as JSON text and as structured content', () => {
    const result = jsonToolResult({ a: [1, 2] });
    expect(result.structuredContent).toEqual({ a: [1, 2] });
    expect(JSON.parse(toolResultText(result))).toEqual({ a: [1, 2] });
  });
});

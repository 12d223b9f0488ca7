/** Client tools in a run: listed as client:client:<name>, pending or executed, validated, never shadowing the catalog. */
import { describe, expect, it } from 'vitest';
import { createKernel, type KernelPlugin, type ToolResult } from '@tool-search/kernel';
import { clientToolsPlugin, type ClientToolInput } from '../src/index.js';

const weather: ClientToolInput = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] });

/** A catalog source with one tool, to collide with. */
const catalogSource: KernelPlugin = {
  name: 'test-catalog',
  apply({ hooks }) {
    hooks.listTools.tap((sink) =>
      sink.add({
        name: 'search',
        source: 'plugin',
        owner: 'test-catalog',
        description: 'Search',
        inputSchema: { type: 'object' },
      }),
    );
  },
};

describe('clientToolsPlugin', () => {
  it('lists client tools as client:client:<name>', async () => {
    const run = await createKernel({ plugins: [clientToolsPlugin()] }).createRun({
      clientTools: [weather, { name: 'ping' }],
    });
    expect(run.catalog.map((tool) => tool.id)).toEqual(['client:client:get_weather', 'client:client:ping']);
    expect(run.tool('get_weather')).toMatchObject({
      source: 'client',
      owner: 'client',
      description: 'Weather for a city',
    });
  });

  it('adds nothing to a run without client tools', async () => {
    const run = await createKernel({ plugins: [clientToolsPlugin()] }).createRun();
    expect(run.catalog).toEqual([]);
  });

  it('hands a call back to the client as pending when no execute is given', async () => {
    const run = await createKernel({ plugins: [clientToolsPlugin()] }).createRun({ clientTools: [weather] });
    expect(await run.call('get_weather', { city: 'Oslo' })).toMatchObject({
      status: 'pending',
      toolId: 'client:client:get_weather',
      name: 'get_weather',
      args: { city: 'Oslo' },
    });
  });

  it('validates arguments of a client tool before handing it back', async () => {
    const run = await createKernel({ plugins: [clientToolsPlugin()] }).createRun({ clientTools: [weather] });
    await expect(run.call('get_weather', { town: 'Oslo' })).rejects.toMatchObject({ code: 'TOOL_ARGUMENTS_INVALID' });
  });

  it('runs the tool execute callback when the tool has one', async () => {
    const run = await createKernel({ plugins: [clientToolsPlugin()] }).createRun({
      clientTools: [{ name: 'ping', execute: () => text('pong') }],
    });
    expect(await run.call('ping', {})).toMatchObject({
      status: 'ok',
      result: { content: [{ type: 'text', text: 'pong' }] },
    });
  });

  it('runs the plugin-level execute with the tool name and arguments', async () => {
    const plugin = clientToolsPlugin({ execute: (name, args) => text(`${name}(${JSON.stringify(args)})`) });
    const run = await createKernel({ plugins: [plugin] }).createRun({ clientTools: [weather] });
    expect(await run.call('get_weather', { city: 'Oslo' })).toMatchObject({
      status: 'ok',
      result: { content: [{ text: 'get_weather({"city":"Oslo"})' }] },
    });
  });

  it('prefers the tool own execute over the plugin-level one', async () => {
    const plugin = clientToolsPlugin({ execute: () => text('plugin') });
    const run = await createKernel({ plugins: [plugin] }).createRun({
      clientTools: [{ name: 'ping', execute: () => text('tool') }],
    });
    expect(await run.call('ping', {})).toMatchObject({ status: 'ok', result: { content: [{ text: 'tool' }] } });
  });

  it('lets the kernel drop a client tool whose schema is invalid, with a diagnostic', async () => {
    const run = await createKernel({ plugins: [clientToolsPlugin()] }).createRun({
      clientTools: [
        weather,
        { name: 'broken', parameters: { type: 'object', properties: { n: { type: 'no-such-type' } } } },
      ],
    });
    expect(run.tool('client:client:broken')).toBeUndefined();
    expect(run.tool('client:client:get_weather')).toBeDefined();
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'TOOL_SCHEMA_INVALID', toolId: 'client:client:broken' }),
    );
  });

  it('drops a malformed client tool with CLIENT_TOOL_INVALID and keeps the others', async () => {
    const clientTools = [weather, { name: 'has space' }, { name: 'get_weather' }] as unknown as ClientToolInput[];
    const run = await createKernel({ plugins: [clientToolsPlugin()] }).createRun({ clientTools });
    expect(run.catalog.map((tool) => tool.id)).toEqual(['client:client:get_weather']);
    const codes = run.diagnostics.filter((d) => d.code === 'CLIENT_TOOL_INVALID').map((d) => d.details?.rule);
    expect(codes).toEqual(['pattern', 'unique']);
  });

  it('refuses the run when a client tool collides with a catalog tool, naming both', async () => {
    const kernel = createKernel({ plugins: [catalogSource, clientToolsPlugin()] });
    await expect(kernel.createRun({ clientTools: [{ name: 'search' }] })).rejects.toMatchObject({
      code: 'CLIENT_TOOL_COLLISION',
      details: { clientTool: 'client:client:search', catalogTool: 'plugin:test-catalog:search' },
    });
  });

  it('keeps client tools out of search when catalogMode is direct-only', async () => {
    const run = await createKernel({ plugins: [clientToolsPlugin({ catalogMode: 'direct-only' })] }).createRun({
      clientTools: [weather],
    });
    expect(run.tool('get_weather')?.catalogMode).toBe('direct-only');
  });

  it('refuses invalid plugin options with OPTIONS_INVALID', () => {
    expect(() => clientToolsPlugin({ catalogMode: 'hidden' as never })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', path: 'catalogMode' }),
    );
  });
});

/** `normalizeClientTools`: both accepted shapes, and a coded error for each malformed one. */
import { describe, expect, it } from 'vitest';
import { EMPTY_PARAMETERS, normalizeClientTools } from '../src/index.js';

const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('normalizeClientTools', () => {
  it('accepts the OpenAI function format', () => {
    const [tool] = normalizeClientTools([
      { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: weather } },
    ]);
    expect(tool).toEqual({ name: 'get_weather', description: 'Weather for a city', inputSchema: weather });
  });

  it('accepts the plain { name, description, parameters } form with an execute callback', () => {
    const execute = () => ({ content: [] });
    const [tool] = normalizeClientTools([
      { name: 'get_weather', description: 'Weather', parameters: weather, execute },
    ]);
    expect(tool).toEqual({ name: 'get_weather', description: 'Weather', inputSchema: weather, execute });
  });

  it('gives a tool without parameters an empty object schema and an empty description', () => {
    expect(normalizeClientTools([{ name: 'ping' }])).toEqual([
      { name: 'ping', description: '', inputSchema: EMPTY_PARAMETERS },
    ]);
  });

  it('treats a missing list as no tools', () => {
    expect(normalizeClientTools(undefined)).toEqual([]);
  });

  it.each([
    ['a list that is not an array', { name: 'x' }, 'clientTools'],
    ['an entry that is not an object', ['get_weather'], 'clientTools[0]'],
    ['a tool type other than function', [{ type: 'web_search' }], 'clientTools[0].type'],
    ['a function tool without its function object', [{ type: 'function', name: 'x' }], 'clientTools[0].function'],
    ['a missing name', [{ description: 'no name' }], 'clientTools[0].name'],
    ['a name with whitespace', [{ name: 'get weather' }], 'clientTools[0].name'],
    ['a description that is not a string', [{ name: 'x', description: 42 }], 'clientTools[0].description'],
    [
      'parameters that are not an object',
      [{ type: 'function', function: { name: 'x', parameters: 'string' } }],
      'clientTools[0].function.parameters',
    ],
    ['an execute that is not a function', [{ name: 'x', execute: 'run' }], 'clientTools[0].execute'],
    ['a name used twice', [{ name: 'x' }, { type: 'function', function: { name: 'x' } }], 'clientTools[1].name'],
  ])('refuses %s with CLIENT_TOOL_INVALID at its path', (_case, input, path) => {
    expect(() => normalizeClientTools(input)).toThrow(
      expect.objectContaining({ code: 'CLIENT_TOOL_INVALID', details: expect.objectContaining({ path }) }),
    );
  });
});

/** Options are checked by the exported schema before anything starts. */
import { describe, expect, it } from 'vitest';
import { mcpPlugin, mcpServersSchema, parseMcpOptions } from '../src/index.js';

describe('mcpPlugin options', () => {
  it('accepts a stdio server and an HTTP server', () => {
    const options = {
      servers: {
        files: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
          env: { DEBUG: '1' },
          cwd: '/tmp',
          timeoutMs: 5000,
        },
        remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
      },
      connectTimeoutMs: 3000,
    };
    expect(parseMcpOptions(options)).toBe(options);
  });

  it('refuses a server with neither command nor url, naming the path', () => {
    expect(() => parseMcpOptions({ servers: { broken: { args: ['x'] } } })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', path: '/servers/broken/command', rule: 'required' }),
    );
  });

  it('refuses unknown keys on a server', () => {
    expect(() => parseMcpOptions({ servers: { s: { url: 'http://localhost:1/mcp', command: 'x' } } })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', rule: 'additionalProperties' }),
    );
  });

  it('refuses a server name that cannot be an id segment, naming the server', () => {
    expect(() => parseMcpOptions({ servers: { 'a:b': { command: 'x' } } })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', path: '/servers/a:b', rule: 'propertyNames' }),
    );
  });

  it('says a misspelled command is an unknown key and suggests command', () => {
    expect(() => parseMcpOptions({ servers: { fs: { comand: 'npx' } } })).toThrow(
      expect.objectContaining({
        code: 'OPTIONS_INVALID',
        details: {
          issues: expect.arrayContaining([
            expect.objectContaining({
              path: '/servers/fs/comand',
              rule: 'additionalProperties',
              message: expect.stringContaining('"command"'),
            }),
          ]),
        },
      }),
    );
  });

  it('refuses a url that is not http(s)', () => {
    expect(() => parseMcpOptions({ servers: { s: { url: 'file:///etc/passwd' } } })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', path: '/servers/s/url', rule: 'pattern' }),
    );
  });

  it('checks options when the plugin is created', () => {
    expect(() => mcpPlugin({ servers: {}, connectTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID' }),
    );
  });

  it('exports the servers schema for the config package', () => {
    expect(mcpServersSchema).toMatchObject({ type: 'object', additionalProperties: { type: 'object' } });
  });
});

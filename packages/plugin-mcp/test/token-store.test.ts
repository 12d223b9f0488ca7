/** The file token store: owner-only, atomic, and no server name reaches outside its folder. */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultStateDir, fileTokenStore, tokenFile } from '../src/index.js';

describe('fileTokenStore', () => {
  const dirs: string[] = [];
  const stateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'plugin-mcp-store-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips a record in an owner-only file, leaving no temporary file behind', async () => {
    const dir = stateDir();
    const store = fileTokenStore(dir);
    await store.save('notes', {
      serverUrl: 'https://mcp.example/mcp',
      tokens: { access_token: 'a', token_type: 'bearer' },
    });
    await store.save('notes', {
      serverUrl: 'https://mcp.example/mcp',
      tokens: { access_token: 'b', token_type: 'bearer' },
    });
    expect(await store.load('notes')).toMatchObject({ tokens: { access_token: 'b' } });
    expect(readdirSync(join(dir, 'mcp-auth'))).toEqual(['notes.json']);
    expect(statSync(tokenFile(dir, 'notes')).mode & 0o777).toBe(0o600);
    expect(await store.load('other')).toBeUndefined();
  });

  it.each(['../escape', 'a/b', '.hidden', ''])('refuses the name %j with OPTIONS_INVALID', async (name) => {
    const store = fileTokenStore(stateDir());
    await expect(store.save(name, { serverUrl: 'https://x/mcp' })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
    await expect(store.load(name)).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
    await expect(store.delete(name)).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
  });

  it('finds the state folder from TOOL_SEARCH_STATE_DIR, then XDG_STATE_HOME', () => {
    expect(defaultStateDir({ TOOL_SEARCH_STATE_DIR: '/srv/state' })).toBe('/srv/state');
    expect(defaultStateDir({ XDG_STATE_HOME: '/home/u/.state' })).toBe('/home/u/.state/tool-search');
  });
});

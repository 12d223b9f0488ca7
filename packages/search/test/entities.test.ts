import { describe, expect, it } from 'vitest';
import { entityWords } from '../src/entities.js';
import { createToolIndex } from '../src/index.js';
import { tool } from './helpers/tools.js';

describe('query shapes', () => {
  it('a path or a file name means files, a URL a web page, a phone number calling', () => {
    expect(entityWords('save this text as notes/todo.txt on my disk')).toEqual(['file', 'path']);
    expect(entityWords('have a look at ~/Desktop/error.png')).toEqual(['file', 'path']);
    expect(entityWords('open report.pdf')).toEqual(['file', 'path']);
    expect(entityWords('summarize https://example.com/post')).toEqual(['url', 'web', 'page']);
    expect(entityWords('call +1 415 555 0100')).toEqual(['phone', 'number']);
    expect(entityWords('create a github issue')).toEqual([]);
    expect(entityWords('find every file under src/ with a TODO')).toEqual(['file', 'path']);
    expect(entityWords('write it to /root/markdown/report')).toEqual(['file', 'path']);
    // Alternatives, repository slugs and branches are not paths.
    for (const query of [
      'tides and sunrise/sunset times',
      'close issue #88 in octo-org/app',
      'check out release/2.0',
      'a credit/debit card',
    ]) {
      expect(entityWords(query)).toEqual([]);
    }
  });

  it('a request that names a path finds a file tool it shares no word with', () => {
    const index = createToolIndex([
      tool('write_file', 'Create a new file or overwrite an existing file with new content.'),
      tool('send_message', 'Send a message to a Slack channel.', { type: 'object' }, { owner: 'slack' }),
    ]);
    expect(index.search('put this on my disk').weak).toBe(true);
    expect(index.search('put this on my disk as notes/todo.txt')).toMatchObject({ hits: [{ name: 'write_file' }] });
  });
});

import { describe, expect, it } from 'vitest';
import { createToolIndex } from '../src/index.js';
import { tool } from './helpers/tools.js';

const names = (index: ReturnType<typeof createToolIndex>, query: string): string[] =>
  index.search(query).hits.map((hit) => hit.name);

describe('ranking', () => {
  it('matches everyday synonyms (folder -> directory)', () => {
    const index = createToolIndex([
      tool('list_directory', 'List the entries of a directory.'),
      tool('read_file', 'Read a file.'),
    ]);
    expect(names(index, 'what is in this folder')[0]).toBe('list_directory');
  });

  it('reads a question about the conditions as one about the weather (rain -> forecast)', () => {
    const index = createToolIndex([
      tool('get_forecast', 'Get the weather forecast for a city.'),
      tool('get_project_stats', 'Get activity stats of a project for this week.'),
    ]);
    expect(names(index, 'Will it rain in Seattle this weekend?')[0]).toBe('get_forecast');
  });

  it('reads a phrasal verb as its one-word meaning ("add up" is a sum, "turn on" is enable)', () => {
    const index = createToolIndex([
      tool('add_item', 'Add an item to the sales board.'),
      tool('sum_column', 'Sum the values of a column on a board and return the total.'),
      tool('enable_setting', 'Enable a setting, such as dark mode.'),
      tool('turn_page', 'Turn to the next page of a document.'),
    ]);
    expect(names(index, 'add up the deal values on the sales board')[0]).toBe('sum_column');
    expect(names(index, 'turn on dark mode')[0]).toBe('enable_setting');
  });

  it('matches interface words to their synonyms (dropdown -> select option)', () => {
    const index = createToolIndex([
      tool('select_option', 'Select an option in a form.'),
      tool('read_file', 'Read a file.'),
    ]);
    expect(names(index, 'pick Canada in the dropdown')[0]).toBe('select_option');
  });

  it('finds a tool described in full words from an abbreviation (repo -> repository)', () => {
    const index = createToolIndex([
      tool('list_projects', 'List the repositories of a user.'),
      tool('list_files', 'List the files of a folder.'),
    ]);
    expect(names(index, 'show my repos')[0]).toBe('list_projects');
  });

  it('stems, so plurals and -ing forms match', () => {
    const index = createToolIndex([
      tool('manage_labels', 'Manage labels on an issue.'),
      tool('read_file', 'Read a file.'),
    ]);
    expect(names(index, 'labelling')[0]).toBe('manage_labels');
  });

  it('prefers a read tool for a question and a write tool for an order', () => {
    const index = createToolIndex([
      tool('create_issue', 'Create an issue in the tracker.'),
      tool('get_issue', 'Get an issue from the tracker.'),
    ]);
    expect(names(index, 'which issue is in the tracker')[0]).toBe('get_issue');
    expect(names(index, 'add an issue to the tracker')[0]).toBe('create_issue');
  });

  it('reads a verb-less request that ends in a question mark as a question', () => {
    const index = createToolIndex([
      tool('create_events', 'Create calendar events.'),
      tool('list_events', 'List calendar events.'),
    ]);
    expect(names(index, 'calendar events tomorrow')[0]).toBe('create_events');
    expect(names(index, 'calendar events tomorrow?')[0]).toBe('list_events');
  });

  it('lifts the tools of a server the query names', () => {
    const index = createToolIndex([
      tool('send_message', 'Send a message to a channel.', { type: 'object' }, { owner: 'discord' }),
      tool('send_message', 'Send a message to a channel.', { type: 'object' }, { owner: 'slack' }),
    ]);
    expect(index.search('send a message on slack').hits[0]?.owner).toBe('slack');
    expect(index.search('send a message on discord').hits[0]?.owner).toBe('discord');
  });

  it('ignores example code and URLs pasted into descriptions', () => {
    const index = createToolIndex([
      tool(
        'get_account',
        'Get the account.\n```json\n{"invoice": "acme", "github_url": "https://github.com/acme"}\n```',
      ),
      tool('list_invoices', 'List invoices.'),
    ]);
    expect(names(index, 'invoice')).toEqual(['list_invoices']);
    expect(index.search('github')).toMatchObject({ weak: true });
  });

  it('matches parameter names and descriptions', () => {
    const index = createToolIndex([
      tool('run', 'Run a job.', {
        type: 'object',
        properties: { cron: { type: 'string', description: 'Schedule expression' } },
      }),
      tool('stop', 'Stop a job.'),
    ]);
    expect(names(index, 'cron schedule')[0]).toBe('run');
  });
});

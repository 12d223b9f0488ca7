/** Several phrasings of one need, fused into one ranked list (reciprocal rank), on every search entry point. */
import { describe, expect, it } from 'vitest';
import { createToolIndex, indexForRun } from '../src/index.js';
import { tool } from './helpers/tools.js';

const catalog = [
  tool('create_issue', 'Create an issue in a repository.', { type: 'object' }, { owner: 'github' }),
  tool('file_bug_report', 'File a bug report with steps to reproduce.', { type: 'object' }, { owner: 'tracker' }),
  tool('list_issues', 'List the issues of a repository.', { type: 'object' }, { owner: 'github' }),
  tool('send_email', 'Send an email.', { type: 'object' }, { owner: 'mail' }),
];

describe('fused search', () => {
  it('ranks what several phrasings found as one list; a tool both found comes first', () => {
    const index = createToolIndex(catalog);
    const fused = index.search(['open a new issue in the repository', 'report a bug in the repository'], {
      fuse: true,
    });
    expect(fused.query).toBe('open a new issue in the repository | report a bug in the repository');
    expect(
      fused.hits
        .map((hit) => hit.name)
        .slice(0, 2)
        .sort(),
    ).toEqual(['create_issue', 'file_bug_report']);
    expect(fused.hits.map((hit) => hit.name)).not.toContain('send_email');
  });

  it('is reciprocal-rank fusion: ties between phrasings break by id, a tool found by more phrasings wins', () => {
    const index = createToolIndex(catalog);
    // Each phrasing finds a different tool first: equal fused scores, so id order.
    expect(
      index
        .search(['send email', 'file bug report'], { fuse: true })
        .hits.slice(0, 2)
        .map((hit) => hit.id),
    ).toEqual(['mcp:mail:send_email', 'mcp:tracker:file_bug_report']);
    // A third phrasing agreeing with the second breaks the tie.
    expect(index.search(['send email', 'file bug report', 'bug report'], { fuse: true }).hits[0]?.id).toBe(
      'mcp:tracker:file_bug_report',
    );
  });

  it('respects limit and byte budget, marks weak only what every phrasing found weakly, takes select: phrasings', () => {
    const index = createToolIndex(catalog, { maxResponseBytes: 400 });
    const cut = index.search(['issue', 'repository', 'bug'], { fuse: true, limit: 2 });
    expect(cut.hits.length).toBeLessThanOrEqual(2);
    expect(cut.truncated).toBe(true);
    const weak = createToolIndex(catalog).search(['zebra migration', 'send email'], { fuse: true });
    expect(weak.hits[0]?.name).toBe('send_email');
    expect(weak.hits[0]?.weak).toBeUndefined();
    expect(
      createToolIndex(catalog)
        .search(['select:list_issues', 'send email'], { fuse: true })
        .hits.slice(0, 2)
        .map((hit) => hit.name)
        .sort(),
    ).toEqual(['list_issues', 'send_email']);
  });

  it('without fuse an array stays a batch, and fuse on one query is a plain search', () => {
    const index = createToolIndex(catalog);
    expect(index.search(['send email', 'bug'])).toHaveProperty('results');
    expect(index.search('send email', { fuse: true } as never)).toEqual(index.search('send email'));
  });

  it('policy: a hidden tool never comes back from any phrasing', () => {
    const listed = [...catalog];
    const index = indexForRun({ catalog: listed.filter((t) => t.owner !== 'tracker'), listed });
    const fused = index.search(['file bug report', 'select:file_bug_report', 'file_bug_report'], { fuse: true });
    expect(fused.hits.map((hit) => hit.owner)).not.toContain('tracker');
  });
});

import { describe, expect, it } from 'vitest';
import { terms, words } from '../src/tokenize.js';

describe('tokenize', () => {
  it.each([
    ['snake_case', 'list_allowed_directories', ['list', 'allowed', 'directories']],
    ['kebab-case', 'create-drive-item', ['create', 'drive', 'item']],
    ['dots, colons and slashes', 'mcp:github/search.issues', ['mcp', 'github', 'search', 'issues']],
    [
      'camelCase, keeping the joined word',
      'getPullRequestComments',
      ['get', 'pull', 'request', 'comments', 'getpullrequestcomments'],
    ],
    ['acronyms', 'parseHTMLResponse', ['parse', 'html', 'response', 'parsehtmlresponse']],
    ['digits stay with letters', 'ec2 s3Bucket', ['ec2', 's3', 'bucket', 's3bucket']],
  ])('splits %s', (_label, text, expected) => {
    expect(words(text)).toEqual(expected);
  });

  it('drops stopwords, bare numbers and single letters', () => {
    expect(terms('Can you show me the 3 files in a folder?')).toEqual(['show', 'file', 'folder']);
  });

  it('stems so plural and -ing forms meet', () => {
    expect(terms('listing files')).toEqual(terms('list file'));
  });

  it('folds common abbreviations into the word they stand for', () => {
    expect(terms('repo db msgs')).toEqual(terms('repository database messages'));
  });

  it('turns Chinese into character unigrams and bigrams', () => {
    expect(words('天气预报')).toEqual(['天', '天气', '气', '气预', '预', '预报', '报']);
  });

  it('keeps kana and latin words in mixed text', () => {
    expect(words('LINEメッセージ')).toEqual(['line', 'メ', 'メッ', 'ッ', 'ッセ', 'セ', 'セー', 'ー', 'ージ', 'ジ']);
  });

  it('splits on CJK punctuation', () => {
    expect(words('发布，小组')).toEqual(['发', '发布', '布', '小', '小组', '组']);
  });
});

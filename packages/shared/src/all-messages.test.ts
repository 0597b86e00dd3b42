import { describe, expect, it } from 'vitest';
import { MESSAGES } from './all-messages.js';
import { languageProblems } from './language-rules.js';
import { messagesFor } from './messages.js';

describe('shared messages, one language at a time', () => {
  it('every message is in both languages, with the same params, each in its own script', () => {
    const tables = { zh_Hans: messagesFor('zh_Hans', MESSAGES), en: messagesFor('en', MESSAGES) };
    // console.md gives these Chinese texts verbatim; the English also names the limit.
    const fixedWording = new Set(['grant.exceedsParent', 'grant.endAfterParent']);
    expect(languageProblems(tables, { fixedWording })).toEqual([]);
  });

  it('the rules find a missing key, an English text in Chinese, a full-width colon in English, a lost param', () => {
    expect(
      languageProblems({
        zh_Hans: { a: '甲', b: 'removed 0 data records', c: '所有者：{{name}}', d: '删除{{count}}条' },
        en: { b: 'removed', c: 'Owner：{{name}}', d: 'Removed', e: 'extra' },
      }),
    ).toEqual([
      'a: missing in en',
      'e: missing in zh_Hans',
      'b: no Chinese in zh_Hans: removed 0 data records',
      'c: Chinese or full-width text in en: Owner：{{name}}',
      'd: params differ (en ; zh_Hans count)',
    ]);
  });
});

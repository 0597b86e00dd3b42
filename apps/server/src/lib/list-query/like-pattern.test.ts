import { describe, expect, it } from 'vitest';
import { parseFilter } from './filter.js';
import { LIKE_LIMITS, LIKE_SYNTAX, LikePatternError, parseLikePattern, toPostgresRegex } from './like-pattern.js';
import { itemResource, reasonOf } from './test-fixture.js';

/** The pattern PostgreSQL is sent for a `like` pattern. */
const rewritten = (pattern: string) => toPostgresRegex(parseLikePattern(pattern));

function refusal(pattern: string): string {
  try {
    parseLikePattern(pattern);
  } catch (error) {
    expect(error).toBeInstanceOf(LikePatternError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(pattern)} to be refused`);
}

describe('like patterns: accepted, and what PostgreSQL is sent', () => {
  it.each<[string, string]>([
    ['', ''],
    ['plain text', 'plain text'],
    ['Farm 12', 'Farm 12'],
    ['泵站-一号', '泵站-一号'],
    ['a/b, c: d = "e" #1 ~ & % @ !', 'a/b, c: d = "e" #1 ~ & % @ !'],
    ['😀x', '😀x'],
    ['a.c', 'a.c'],
    ['^North', '^North'],
    ['pump$', 'pump$'],
    ['^$', '^$'],
    ['ab*c+d?', 'ab*c+d?'],
    ['.*', '.*'],
    ['[abc]', '[abc]'],
    ['[^abc]', '[^abc]'],
    ['[a-z0-9]+', '[a-z0-9]+'],
    ['[A-F]', '[A-F]'],
    ['[一-龥]+', '[一-龥]+'],
    ['[é-ü😀]', '[é-ü😀]'],
    ['[-a]', '[\\-a]'],
    ['[a-]', '[a\\-]'],
    ['[^-]', '[^\\-]'],
    ['[a-z-]', '[a-z\\-]'],
    ['[a^]', '[a\\^]'],
    ['[.*+?(){}|$/]', '[.*+?(){}|$/]'],
    ['[\\]\\[\\\\\\-\\^]', '[\\]\\[\\\\\\-\\^]'],
    ['\\.\\*\\+\\?\\^\\$\\|\\(\\)\\[\\]\\{\\}\\\\', '\\.\\*\\+\\?\\^\\$\\|\\(\\)\\[\\]\\{\\}\\\\'],
    ['\\/', '/'],
    ['pump|well', 'pump|well'],
    ['a|', 'a|'],
    ['(pump|well) 1', '(?:pump|well) 1'],
    ['^(North|South) [a-z]+ 1.$', '^(?:North|South) [a-z]+ 1.$'],
    ['(a*|b+|)c', '(?:a*|b+|)c'],
    ['()', '(?:)'],
    ['(x)(y)', '(?:x)(?:y)'],
    ['(^a|b$)', '(?:^a|b$)'],
    ['a'.repeat(10).split('').join('*'), 'a*a*a*a*a*a*a*a*a*a'],
  ])('%j → %j', (pattern, expected) => {
    expect(rewritten(pattern)).toBe(expected);
  });

  it('allows exactly the limits', () => {
    expect(rewritten('a*'.repeat(LIKE_LIMITS.quantifiers))).toBe('a*'.repeat(LIKE_LIMITS.quantifiers));
    expect(rewritten('[\u0080-\u{10ffff}][\u0080-\u00ff]')).toBe('[\u0080-\u{10ffff}][\u0080-\u00ff]');
  });
});

describe('like patterns: refused, each with its reason', () => {
  it.each<[string, string]>([
    ['((a{1,50}){1,50}){1,50}b', 'nested groups are not allowed'],
    ['(a|(b|c))', 'nested groups are not allowed'],
    ['(a)*', "a repetition '*' after a group is not allowed"],
    ['(a|b)+', "a repetition '+' after a group is not allowed"],
    ['(a)?', "a repetition '?' after a group is not allowed"],
    ['(a){2}', 'counted repetition {n,m} is not allowed'],
    ['a{1,50}', 'counted repetition {n,m} is not allowed (a literal { is written \\{)'],
    ['a{2}', 'counted repetition {n,m} is not allowed'],
    ['{', 'counted repetition {n,m} is not allowed'],
    ['a}', "a literal '}' is written '\\}'"],
    ['a]', "a literal ']' is written '\\]'"],
    ['a)', "unbalanced ')': a literal ')' is written '\\)'"],
    ['(a', "unclosed group: '(' without ')'"],
    ['(?:a)', 'lookarounds and group options (?…) are not allowed'],
    ['a(?=b)', 'lookarounds and group options (?…) are not allowed'],
    ['(?<!a)b', 'lookarounds and group options (?…) are not allowed'],
    ['(?i)a', 'lookarounds and group options (?…) are not allowed'],
    ['(a)\\1', 'backreferences such as \\1 are not allowed'],
    ['\\0', 'backreferences such as \\0 are not allowed'],
    ['\\d+', 'the escape \\d is not allowed (a backslash may only precede one of \\ ^ $ . * + ? ( ) [ ] { } | /)'],
    ['\\w', 'the escape \\w is not allowed'],
    ['\\s', 'the escape \\s is not allowed'],
    ['\\b', 'the escape \\b is not allowed'],
    ['\\m', 'the escape \\m is not allowed'],
    ['\\u0041', 'the escape \\u is not allowed'],
    ['\\x41', 'the escape \\x is not allowed'],
    ['\\-', 'the escape \\- is not allowed'],
    ['\\"', 'the escape \\" is not allowed'],
    ['[\\d]', 'the escape \\d is not allowed'],
    ['a\\', 'the pattern ends with a lone backslash (a literal \\ is written \\\\)'],
    ['*a', "a repetition '*' must follow a character, '.' or a class"],
    ['+', "a repetition '+' must follow a character, '.' or a class"],
    ['a|?', "a repetition '?' must follow a character, '.' or a class"],
    ['^*', "a repetition '*' must follow a character, '.' or a class"],
    ['a$+', "a repetition '+' must follow a character, '.' or a class"],
    ['(*)', "a repetition '*' must follow a character, '.' or a class"],
    ['a**', "a repetition right after another ('**': lazy or repeated repetition) is not allowed"],
    ['a*?', "a repetition right after another ('*?': lazy or repeated repetition) is not allowed"],
    ['a++', "a repetition right after another ('++': lazy or repeated repetition) is not allowed"],
    ['a*{2}', 'counted repetition {n,m} is not allowed'],
    ['a*'.repeat(LIKE_LIMITS.quantifiers + 1), 'more than 10 repetitions (* + ?) are not allowed'],
    ['[[:alpha:]]', "'[' inside a class is written '\\[' (POSIX classes such as [:alpha:] are not allowed)"],
    ['[[.a.]]', "'[' inside a class is written '\\['"],
    ['[]', "an empty class '[]' is not allowed (a literal ']' is written '\\]')"],
    ['[^]', "an empty class '[]' is not allowed"],
    ['[]a]', "an empty class '[]' is not allowed"],
    ['[abc', "unclosed class: '[' without ']'"],
    ['[a-', "unclosed class: '[' without ']'"],
    ['[a-c-e]', "a literal '-' inside a class goes first, last or as '\\-'"],
    ['[z-a]', "the range 'z-a' is out of order"],
    ['[9-0]', "the range '9-0' is out of order"],
    ['[A-z]', "the range 'A-z' is not allowed: a range's ends are both digits, both a-z, both A-Z or both non-ASCII"],
    ['[0-z]', "the range '0-z' is not allowed"],
    ['[!-~]', "the range '!-~' is not allowed"],
    ['[a-é]', "the range 'a-é' is not allowed"],
    ['[\\.-z]', "the range '.-z' is not allowed"],
    ['[a-\\z]', "the range 'a-\\' is not allowed"],
    ['[a--]', "the range 'a--' is not allowed"],
    ['[\u0080-\u{10ffff}][\u0080-\u{10ffff}]', 'ranges spanning more than 1,114,112 characters are not allowed'],
  ])('%j: %s', (pattern, reason) => {
    expect(refusal(pattern)).toContain(reason);
  });

  it('says in the 400 which operator, which field, what is wrong and what is allowed', () => {
    expect(reasonOf(() => parseFilter({ s: { like: 'a{1,50}' } }, itemResource))).toBe(
      `'like' on field 's': counted repetition {n,m} is not allowed (a literal { is written \\{); ${LIKE_SYNTAX}`,
    );
    expect(reasonOf(() => parseFilter({ or: [{ s: { not: { like: '(a)*' } } }] }, itemResource))).toBe(
      `'like' on field 's': a repetition '*' after a group is not allowed; ${LIKE_SYNTAX}`,
    );
    expect(LIKE_SYNTAX).toBe('like takes text and the simple patterns . [ ] * + ? ^ $ | ( )');
  });
});

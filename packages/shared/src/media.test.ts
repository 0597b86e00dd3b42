import { describe, expect, it } from 'vitest';
import { checkMediaName, checkMediaPath, MEDIA_LIMITS, MEDIA_TEMP_PREFIX } from './media.js';

const problem = (path: string, allowRoot = false) => {
  const check = checkMediaPath(path, allowRoot);
  return check.ok ? undefined : check.problem;
};

describe('media paths', () => {
  it('accepts ordinary relative paths and answers their segments', () => {
    expect(checkMediaPath('images/logo.png')).toEqual({ ok: true, segments: ['images', 'logo.png'] });
    expect(checkMediaPath('报表/2024 年.xlsx')).toEqual({ ok: true, segments: ['报表', '2024 年.xlsx'] });
    expect(checkMediaPath('.hidden/a..b')).toEqual({ ok: true, segments: ['.hidden', 'a..b'] });
    expect(checkMediaPath('%2e%2e')).toEqual({ ok: true, segments: ['%2e%2e'] });
  });

  it('takes the empty path as the root only where allowed', () => {
    expect(problem('')).toBe('empty');
    expect(checkMediaPath('', true)).toEqual({ ok: true, segments: [] });
  });

  it('refuses parent and current folder segments anywhere', () => {
    for (const path of ['..', '../etc/passwd', 'a/../../b', 'a/..', '.', 'a/./b']) {
      expect(problem(path), path).toBe('dotSegment');
    }
  });

  it('refuses absolute paths, drive letters and backslashes', () => {
    expect(problem('/etc/passwd')).toBe('absolute');
    expect(problem('/')).toBe('absolute');
    expect(problem('C:/Windows')).toBe('absolute');
    expect(problem('c:evil')).toBe('absolute');
    expect(problem('a\\..\\b')).toBe('backslash');
    expect(problem('..\\windows')).toBe('backslash');
  });

  it('refuses empty segments (double or trailing slashes)', () => {
    expect(problem('a//b')).toBe('emptySegment');
    expect(problem('a/')).toBe('emptySegment');
  });

  it('refuses NUL and every other control character', () => {
    for (const c of ['\u0000', '\u0001', '\n', '\r', '\t', '\u001b', '\u007f', '\u0085', '\u009f']) {
      expect(problem(`a${c}b`), JSON.stringify(c)).toBe('control');
    }
  });

  it('refuses characters Windows cannot store, and names ending with a dot or space', () => {
    for (const c of ['<', '>', ':', '"', '|', '?', '*']) expect(problem(`ab${c}c`), c).toBe('forbiddenCharacter');
    expect(problem('name.')).toBe('trailingDotOrSpace');
    expect(problem('dir /x')).toBe('trailingDotOrSpace');
  });

  it('refuses reserved device names in any case, with or without an extension, and our temporary names', () => {
    for (const name of ['CON', 'con', 'Prn', 'AUX', 'NUL', 'nul.txt', 'COM1', 'com9.log', 'LPT1', 'lpt¹', 'CONIN$']) {
      expect(checkMediaName(name), name).toBe('reservedName');
    }
    expect(problem(`dir/${MEDIA_TEMP_PREFIX}x`)).toBe('reservedName');
    expect(checkMediaName('console')).toBeUndefined();
    expect(checkMediaName('COM10')).toBeUndefined();
  });

  it('bounds the length of names and paths and the depth', () => {
    expect(checkMediaName('a'.repeat(255))).toBeUndefined();
    expect(checkMediaName('a'.repeat(256))).toBe('nameTooLong');
    // 86 three-byte characters are 258 bytes.
    expect(checkMediaName('文'.repeat(86))).toBe('nameTooLong');
    expect(problem(Array.from({ length: 200 }, () => 'abcdef').join('/'))).toBe('tooLong');
    expect(problem(Array.from({ length: MEDIA_LIMITS.depthMax }, () => 'a').join('/'))).toBeUndefined();
    expect(problem(Array.from({ length: MEDIA_LIMITS.depthMax + 1 }, () => 'a').join('/'))).toBe('tooDeep');
  });

  it('refuses a slash inside a single name', () => {
    expect(checkMediaName('a/b')).toBe('absolute');
  });
});

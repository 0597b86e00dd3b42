import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './sha256.js';

describe('sha256Hex', () => {
  it('matches node:crypto on known and awkward inputs', () => {
    const inputs = [
      '',
      'abc',
      'admin123',
      '密码Password1!',
      'a'.repeat(55),
      'b'.repeat(56),
      'c'.repeat(64),
      'd'.repeat(1000),
    ];
    for (const input of inputs) expect(sha256Hex(input)).toBe(createHash('sha256').update(input, 'utf8').digest('hex'));
  });
  it('gives the well-known digest of "abc"', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

import { describe, expect, it } from 'vitest';
import { checkPassword, passwordStrength, STRENGTH_PERCENT } from './password.js';

describe('password rules (console.md §5)', () => {
  it.each([
    ['abc12', 'password.tooShort'],
    [`${'a1'.repeat(15)}x`, 'password.tooLong'],
    ['abcdefgh', 'password.composition'],
    ['12345678', 'password.composition'],
    ['abc123', null],
    ['a1'.repeat(15), null],
  ])('%s → %s', (password, problem) => {
    expect(checkPassword(password)).toBe(problem);
  });
});

describe('strength tiers', () => {
  it.each([
    ['abcdef', 'weak'],
    ['abc12', 'weak'],
    ['abc123', 'medium'],
    ['abcd1234', 'strong'],
    ['Abcdefgh1234', 'strong'],
    ['Abcdefg1234!', 'best'],
    ['Ab1!'.repeat(8), 'strong'],
  ])('%s is %s', (password, tier) => {
    expect(passwordStrength(password)).toBe(tier);
  });

  it('maps tiers to 25/50/75/100 %', () => {
    expect(STRENGTH_PERCENT).toEqual({ weak: 25, medium: 50, strong: 75, best: 100 });
  });
});

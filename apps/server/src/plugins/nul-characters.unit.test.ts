import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findBadInput, MAX_INPUT_DEPTH } from './nul-characters.js';

/** The reference: whether anything in `value` (a key or a text, at any depth) could not be stored. */
function hasBadInput(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000') || /\p{Surrogate}/u.test(value);
  if (value === null || typeof value !== 'object') return false;
  if (depth >= MAX_INPUT_DEPTH) return true;
  return Object.entries(value).some(
    ([key, inner]) => (!Array.isArray(value) && hasBadInput(key)) || hasBadInput(inner, depth + 1),
  );
}

/** Texts with and without U+0000 and lone surrogates. */
const text = fc.oneof(fc.string(), fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'ok', ''));
const input = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('the NUL and depth check of every input', () => {
  it('finds a problem exactly when a key or a text holds one, wherever it is', () => {
    fc.assert(
      fc.property(input, (value) => {
        expect(findBadInput(value) !== undefined).toBe(hasBadInput(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('has nothing to say of no input or an empty query, body or parameter list', () => {
    for (const empty of [undefined, null, {}, [], Object.create(null)]) expect(findBadInput(empty)).toBeUndefined();
  });

  it('names the field of the first key or value it cannot store', () => {
    const query = Object.assign(Object.create(null), { name: 'a\u0000' });
    expect(findBadInput(query)).toEqual({ field: 'name', key: 'error.nulCharacter' });
    expect(findBadInput({ 'bad\u0000': 1 })).toEqual({ field: '_', key: 'error.nulCharacter' });
    expect(findBadInput({ list: [{}, { x: '\ud800' }] })).toEqual({ field: 'list.1.x', key: 'error.invalidField' });
  });

  it('refuses nesting past the limit, and not up to it', () => {
    const nested = (levels: number): unknown => (levels === 0 ? 'leaf' : { inner: nested(levels - 1) });
    expect(findBadInput(nested(MAX_INPUT_DEPTH))).toBeUndefined();
    expect(findBadInput(nested(MAX_INPUT_DEPTH + 1))?.key).toBe('error.invalidField');
  });
});

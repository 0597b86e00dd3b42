import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonShape } from './json-view.js';

const item = z.object({ type: z.string().default('device'), count: z.number() });
const schema = z.object({
  name: z.string(),
  note: z.string().optional(),
  owner: z.object({ id: z.string() }).nullable(),
  items: z.array(item),
  tags: z.array(z.string()),
  extra: z.record(z.string(), z.unknown()),
  mode: z.enum(['a', 'b']).default('a'),
});

describe('jsonShape', () => {
  it('keeps only listed keys at every depth, fills defaults, leaves records and plain arrays as they are', () => {
    const stored = {
      name: 'n',
      secret: 's',
      owner: { id: 'o', password: 'p' },
      items: [
        { count: 1, token: 't' },
        { type: 'gateway', count: 2 },
      ],
      tags: ['x'],
      extra: { any: { nested: 1 } },
    };
    const shaped = jsonShape(schema)(stored as never);
    expect(shaped).toEqual({
      name: 'n',
      owner: { id: 'o' },
      items: [
        { type: 'device', count: 1 },
        { type: 'gateway', count: 2 },
      ],
      tags: ['x'],
      extra: { any: { nested: 1 } },
      mode: 'a',
    });
    expect(Object.hasOwn(shaped, 'note')).toBe(false);
    // What zod's parse answers for the same document (its response check, `encode`, fills no default:
    // it refuses the document, and the whole page with it).
    expect(shaped).toEqual(schema.parse(stored));
  });

  it('keeps null null and an optional key that is present', () => {
    const shaped = jsonShape(schema)({ name: 'n', note: 'k', owner: null, items: [], tags: [], extra: {}, mode: 'b' });
    expect(shaped).toEqual({ name: 'n', note: 'k', owner: null, items: [], tags: [], extra: {}, mode: 'b' });
  });

  it('gives each default its own copy', () => {
    const list = z.object({ values: z.array(z.number()).default([]) });
    const shape = jsonShape(list);
    const first = shape({} as never);
    first.values.push(1);
    expect(shape({} as never)).toEqual({ values: [] });
  });
});

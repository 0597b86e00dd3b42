import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordView } from './table.schema.js';

const record = (data: unknown) => ({
  id: 'r1',
  data,
  createdBy: null,
  updatedBy: 'u1',
  createTime: '2026-01-01T00:00:00.000Z',
  updateTime: '2026-01-01T00:00:00.000Z',
});

describe('a record as answered', () => {
  it('passes its values on as they are, whatever JSON they hold, and refuses values that are not an object', () => {
    const data = { t1: 'well', n1: 1.5, c1: ['a'], nested: { deep: [null, true] } };
    const parsed = recordView.parse(record(data));
    expect(parsed.data).toBe(data);
    for (const bad of [null, [], 'text', 7, undefined]) expect(recordView.safeParse(record(bad)).success).toBe(false);
  });

  it('is an object of any values in the API docs', () => {
    const schema = z.toJSONSchema(recordView, { unrepresentable: 'any' });
    expect(schema.properties?.data).toEqual({ type: 'object', additionalProperties: {} });
  });
});

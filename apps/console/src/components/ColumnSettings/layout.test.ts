import { describe, expect, it } from 'vitest';
import { effectiveSetting, orderedKeys, visibleKeys } from './layout';

const ALL = ['a', 'b', 'c', 'd'];

describe('table preferences against today’s columns', () => {
  it('keeps the stored order, drops columns that are gone and appends new ones', () => {
    const stored = { columns: ['c', 'x'], order: ['c', 'x', 'a'], density: 'middle' as const, pageSize: 5 };
    expect(orderedKeys(ALL, stored)).toEqual(['c', 'a', 'b', 'd']);
    // a was hidden on purpose; b and d are new since
    expect(visibleKeys(ALL, stored)).toEqual(['c', 'b', 'd']);
  });

  it('shows every column when nothing is stored or nothing stored remains', () => {
    expect(visibleKeys(ALL, undefined)).toEqual(ALL);
    const gone = { columns: ['x'], order: ['x', 'a', 'b', 'c', 'd'], density: 'loose' as const, pageSize: 5 };
    expect(visibleKeys(ALL, gone)).toEqual(ALL);
  });

  it('falls back to the defaults for density and page size', () => {
    expect(effectiveSetting(ALL, undefined, { pageSize: 10 })).toEqual({
      columns: ALL,
      order: ALL,
      density: 'middle',
      pageSize: 10,
    });
  });
});

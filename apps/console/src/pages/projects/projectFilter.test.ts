import { describe, expect, it } from 'vitest';
import { cleanFilter, combineWhere, filterWhere, scopeWhere } from './projectFilter';
import { displayCount, remainingOf } from './projectNumbers';
import { project } from './testFixtures';
import { nextCardSkip } from './useProjectLists';

describe('project filter', () => {
  it('keeps only well-formed conditions from storage', () => {
    expect(
      cleanFilter({
        name: '  ',
        status: 'yes',
        industry: 'gold',
        user: 'acme',
        createTime: ['2026-01-01', 'x'],
        extra: 1,
      }),
    ).toEqual({ user: 'acme' });
    expect(cleanFilter('nonsense')).toEqual({});
  });

  it('turns the filter into a where clause: literal name, whole local days', () => {
    const where = filterWhere({ name: 'a+b', status: false, createTime: ['2026-03-01', '2026-03-02'] });
    expect(where.name).toEqual({ like: 'a\\+b' });
    expect(where.status).toBe(false);
    const range = where.createTime as { gte: string; lt: string };
    expect(new Date(range.gte).getTime()).toBe(new Date(2026, 2, 1).getTime());
    expect(new Date(range.lt).getTime()).toBe(new Date(2026, 2, 3).getTime());
  });

  it('combines the scope and the filter', () => {
    expect(scopeWhere('all', 'admin')).toEqual({});
    expect(combineWhere(scopeWhere('mine', 'admin'), {})).toEqual({ user: 'admin' });
    expect(combineWhere(scopeWhere('tenants', 'admin'), { user: 'acme' })).toEqual({
      and: [{ user: { ne: 'admin' } }, { user: 'acme' }],
    });
  });
});

describe('card numbers', () => {
  it('is granted minus used, unlimited when the grant sets no limit', () => {
    const p = project('a', { license: { userCount: 25 } });
    expect(remainingOf(p, 'userCount')).toBe(-5);
    expect(remainingOf(p, 'eventCount')).toBeNull();
    expect(remainingOf({ grant: null, license: null }, 'userCount')).toBeNull();
  });

  it('shows 999+ above 999', () => {
    expect(displayCount(999)).toEqual({ text: '999', exact: null });
    expect(displayCount(1000)).toEqual({ text: '999+', exact: '1,000' });
  });

  it('offers another card page only after a full one, while the total says more', () => {
    const page = (n: number, count: number) => ({
      items: Array.from({ length: n }, (_, i) => project(`p${i}`)),
      count,
    });
    expect(nextCardSkip([page(15, 40)])).toBe(15);
    expect(nextCardSkip([page(15, 40), page(15, 40)])).toBe(30);
    expect(nextCardSkip([page(15, 40), page(10, 40)])).toBeUndefined();
    expect(nextCardSkip([page(15, 15)])).toBeUndefined();
  });
});

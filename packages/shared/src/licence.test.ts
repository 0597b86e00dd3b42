import { describe, expect, it } from 'vitest';
import {
  childrenSpan,
  type GrantProblem,
  grantProblems,
  grantProblemText,
  grantSchema,
  isCalendarDate,
} from './licence.js';

describe('grant start dates', () => {
  it.each(['2026-02-28', '2028-02-29', '2026-12-31', '0001-01-01', '9999-12-31'])('takes %s', (date) => {
    expect(isCalendarDate(date)).toBe(true);
  });

  it.each([
    '2027-02-29',
    '2026-02-30',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '0000-01-01',
    '2026-1-01',
    '26-01-01',
  ])('refuses %s', (date) => {
    expect(isCalendarDate(date)).toBe(false);
    const parsed = grantSchema.safeParse({ validityPeriod: 1, startTime: date, userCount: 1, flow: { tableCount: 1 } });
    expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['startTime', 'grant.invalidDate'],
    ]);
  });
});

describe('grant required fields', () => {
  const complete = { validityPeriod: 10, startTime: '2026-01-01', userCount: 1, flow: { tableCount: 1 } };

  it.each(['validityPeriod', 'startTime', 'userCount', 'flow'] as const)(
    'answers a grant without %s with "please check available licence"',
    (field) => {
      const { [field]: _left, ...partial } = complete;
      const parsed = grantSchema.safeParse(partial);
      expect(parsed.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
        [field, 'grant.missing'],
      ]);
    },
  );

  it('keeps the value rule for a value that is there but wrong', () => {
    expect(grantSchema.safeParse({ ...complete, flow: {} }).error?.issues[0]?.message).toBe('grant.missing');
    expect(grantSchema.safeParse({ ...complete, userCount: 0 }).error?.issues[0]?.message).toBe('grant.invalidCount');
    expect(grantSchema.safeParse({ ...complete, userCount: '1' }).error?.issues[0]?.message).toBe('grant.invalidCount');
    expect(grantSchema.safeParse({ ...complete, startTime: 5 }).error?.issues[0]?.message).toBe('grant.invalidDate');
    expect(grantSchema.safeParse(undefined).error?.issues[0]?.message).toBe('grant.missing');
  });
});

describe('grant problems against children and parents', () => {
  const parent = {
    validityPeriod: 100,
    startTime: '2030-01-01',
    userCount: 10,
    flow: { tableCount: 10 },
    dataGathering: { point: 50 },
    features: ['gis', 'DST'],
  };
  const base = {
    validityPeriod: 50,
    startTime: '2030-01-10',
    userCount: 1,
    flow: { tableCount: 1 },
    dataGathering: { point: 5 },
    features: ['gis'],
  };
  const context = { parent, allocatedToOthers: {}, today: '2030-01-01' };

  it('asks for every measure the parent limits', () => {
    const { dataGathering: _omitted, ...withoutPoints } = base;
    const problems = grantProblems(withoutPoints, context);
    expect(problems).toEqual([expect.objectContaining({ field: 'dataGathering.point', key: 'grant.required' })]);
    expect(grantProblemText(problems[0] as GrantProblem, 'zh_Hans')).toBe('数据点数不能为空');
  });

  it('keeps a parent covering the dates and features its children hold', () => {
    const children = childrenSpan([
      { ...base, startTime: '2030-01-05', validityPeriod: 20 },
      { ...base, features: ['DST'] },
    ]);
    const later = grantProblems(
      { ...parent, startTime: '2030-01-06', validityPeriod: 40 },
      { parent: undefined, allocatedToOthers: {}, today: '2030-01-01', ...(children ? { children } : {}) },
    );
    expect(later.map((p) => p.key)).toEqual(['grant.laterThanChildren', 'grant.endBeforeChildren']);
    const dropped = grantProblems(
      { ...parent, features: ['gis'] },
      { parent: undefined, allocatedToOthers: {}, today: '2030-01-01', ...(children ? { children } : {}) },
    );
    expect(dropped).toEqual([
      expect.objectContaining({ field: 'features', key: 'grant.featureInUse', params: { label: 'DST' } }),
    ]);
    expect(
      grantProblems(parent, {
        parent: undefined,
        allocatedToOthers: {},
        today: '2030-01-01',
        ...(children ? { children } : {}),
      }),
    ).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { grantSchema, isCalendarDate } from './licence.js';

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

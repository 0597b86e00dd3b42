import { describe, expect, it } from 'vitest';
import { fromSeconds, normalizeLoginDuration, retentionDays, toSeconds } from './duration.js';

describe('durations', () => {
  it('converts every unit to seconds', () => {
    expect([toSeconds(1, 'Y'), toSeconds(1, 'M'), toSeconds(2, 'w'), toSeconds(3, 'd')]).toEqual([
      365 * 86_400,
      30 * 86_400,
      14 * 86_400,
      3 * 86_400,
    ]);
    expect([toSeconds(2, 'h'), toSeconds(5, 'm'), toSeconds(7, 's')]).toEqual([7200, 300, 7]);
  });

  it('gives retention in days: year 365, month 30, week 7, day 1', () => {
    expect([retentionDays(1, 'Y'), retentionDays(1, 'M'), retentionDays(1, 'w'), retentionDays(1, 'd')]).toEqual([
      365, 30, 7, 1,
    ]);
    expect(retentionDays(3, 'M')).toBe(90);
  });

  it('raises login durations under 10 minutes to 10, and only for minutes', () => {
    expect(normalizeLoginDuration(3, 'm')).toBe(10);
    expect(normalizeLoginDuration(10, 'm')).toBe(10);
    expect(normalizeLoginDuration(45, 'm')).toBe(45);
    expect(normalizeLoginDuration(1, 'h')).toBe(1);
    expect(normalizeLoginDuration(2, 'd')).toBe(2);
  });

  it('shows stored seconds in the largest exact unit', () => {
    expect(fromSeconds(7200, ['d', 'h', 'm'])).toEqual({ count: 2, unit: 'h' });
    expect(fromSeconds(90 * 60, ['d', 'h', 'm'])).toEqual({ count: 90, unit: 'm' });
    expect(fromSeconds(86_400 * 14)).toEqual({ count: 2, unit: 'w' });
  });
});

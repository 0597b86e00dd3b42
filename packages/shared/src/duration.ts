import { LOGIN_DURATION_MIN_MINUTES } from './validations.js';

/** Duration units of console.md §3 (Y, M, w, d, h, m, s) and their length in seconds. */
export const DURATION_UNITS = ['Y', 'M', 'w', 'd', 'h', 'm', 's'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

const DAY = 86_400;
/** Year and month are fixed-length here, as the retention policy defines them (365 and 30 days). */
export const UNIT_SECONDS: Record<DurationUnit, number> = {
  Y: 365 * DAY,
  M: 30 * DAY,
  w: 7 * DAY,
  d: DAY,
  h: 3_600,
  m: 60,
  s: 1,
};

/** Units offered by each duration input. */
export const FREEZE_UNITS = ['d', 'h', 'm'] as const satisfies readonly DurationUnit[];
export const LOGIN_DURATION_UNITS = ['d', 'h', 'm'] as const satisfies readonly DurationUnit[];
export const RETENTION_UNITS = ['Y', 'M', 'w', 'd'] as const satisfies readonly DurationUnit[];

export function toSeconds(count: number, unit: DurationUnit): number {
  return count * UNIT_SECONDS[unit];
}

/** Retention is stored in days: year 365, month 30, week 7, day 1. */
export function retentionDays(count: number, unit: (typeof RETENTION_UNITS)[number]): number {
  return toSeconds(count, unit) / DAY;
}

/** console.md §5: a login duration in minutes below 10 becomes 10. */
export function normalizeLoginDuration(count: number, unit: (typeof LOGIN_DURATION_UNITS)[number]): number {
  return unit === 'm' && count < LOGIN_DURATION_MIN_MINUTES ? LOGIN_DURATION_MIN_MINUTES : count;
}

/** The largest unit that divides the seconds exactly, for showing a stored duration. */
export function fromSeconds(
  seconds: number,
  units: readonly DurationUnit[] = DURATION_UNITS,
): { count: number; unit: DurationUnit } {
  for (const unit of units) {
    const size = UNIT_SECONDS[unit];
    if (seconds >= size && seconds % size === 0) return { count: seconds / size, unit };
  }
  const last = units[units.length - 1] ?? 's';
  return { count: Math.max(1, Math.round(seconds / UNIT_SECONDS[last])), unit: last };
}

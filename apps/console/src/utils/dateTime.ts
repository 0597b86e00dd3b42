import dayjs from 'dayjs';

/**
 * console.md §9 date formats, the only ones the console shows (issue 10: no browser-locale
 * `toLocaleString` dates; a test keeps them out of the source).
 */
export const DATE_TIME = 'YYYY-MM-DD HH:mm:ss';
export const DATE = 'YYYY-MM-DD';
export const TIME = 'HH:mm:ss';

type Instant = string | number | Date | null | undefined;

function format(value: Instant, pattern: string): string {
  if (value === null || value === undefined || value === '') return '-';
  const date = dayjs(value);
  return date.isValid() ? date.format(pattern) : String(value);
}

/** An instant (ISO text, epoch milliseconds or Date) in local time, 'YYYY-MM-DD HH:mm:ss' ('-' when absent). */
export function formatDateTime(value: Instant): string {
  return format(value, DATE_TIME);
}

/** The local day of an instant, 'YYYY-MM-DD' ('-' when absent). */
export function formatDate(value: Instant): string {
  return format(value, DATE);
}

/** The local time of day of an instant, 'HH:mm:ss' ('-' when absent). */
export function formatTime(value: Instant): string {
  return format(value, TIME);
}

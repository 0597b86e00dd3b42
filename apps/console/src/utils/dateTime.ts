import dayjs from 'dayjs';

/** console.md §9 date formats. */
export const DATE_TIME = 'YYYY-MM-DD HH:mm:ss';
export const DATE = 'YYYY-MM-DD';

/** An ISO instant in local time, 'YYYY-MM-DD HH:mm:ss' ('-' when absent or unreadable). */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '-';
  const date = dayjs(value);
  return date.isValid() ? date.format(DATE_TIME) : value;
}

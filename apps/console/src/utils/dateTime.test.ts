import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime } from './dateTime';

describe('date formats (console.md §9)', () => {
  // A local time, so the expectations hold in any time zone the tests run in.
  const local = new Date(2026, 10, 23, 19, 7, 5);

  it('shows instants as YYYY-MM-DD HH:mm:ss, YYYY-MM-DD and HH:mm:ss in local time', () => {
    expect(formatDateTime(local.toISOString())).toBe('2026-11-23 19:07:05');
    expect(formatDateTime(local.getTime())).toBe('2026-11-23 19:07:05');
    expect(formatDateTime(local)).toBe('2026-11-23 19:07:05');
    expect(formatDate(local.toISOString())).toBe('2026-11-23');
    expect(formatTime(local.toISOString())).toBe('19:07:05');
  });

  it("shows '-' for a missing value and an unreadable one as it is", () => {
    expect(formatDateTime(null)).toBe('-');
    expect(formatDateTime(undefined)).toBe('-');
    expect(formatDate('')).toBe('-');
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});

/** Every console source file (not tests). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe('one way to show a date', () => {
  it('no console source formats a date with the browser locale (toLocaleString of a Date and the like)', () => {
    const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const files = sources(src);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((file) =>
      /toLocaleDateString|toLocaleTimeString|new Date\([^)]*\)\.toLocaleString|Intl\.DateTimeFormat/.test(
        readFileSync(file, 'utf8'),
      ),
    );
    expect(offenders.map((file) => path.relative(src, file))).toEqual([]);
  });
});

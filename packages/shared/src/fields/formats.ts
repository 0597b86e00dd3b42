/**
 * Formats of backups-data-designer.md §4a/§5: the text kinds' formats (email, phone, mobile, ID card),
 * colour values, and the date and number display formats.
 */

export const EMAIL =
  /^[^\s@"<>]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
/** A fixed-line number: optional area code (0 + 2–3 digits, hyphen optional), 7–8 digits, optional extension. */
export const PHONE = /^(?:\+?\d{1,3}[- ]?)?(?:0\d{2,3}-?)?\d{7,8}(?:-\d{1,6})?$/;
/** A mainland mobile number, optionally with +86. */
export const MOBILE = /^(?:\+?86[- ]?)?1[3-9]\d{9}$/;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** A resident ID card number (GB 11643): 18 characters, a real birth date, the check character right. */
export function isIdCard(value: string): boolean {
  if (!/^[1-9]\d{5}(?:18|19|20)\d{2}\d{2}\d{2}\d{3}[0-9Xx]$/.test(value)) return false;
  const year = Number(value.slice(6, 10));
  const month = Number(value.slice(10, 12));
  const day = Number(value.slice(12, 14));
  if (!isRealDate(year, month, day)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(value[i]) * (ID_WEIGHTS[i] ?? 0);
  return ID_CHECK[sum % 11] === value[17]?.toUpperCase();
}

export function isRealDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days;
}

const BYTE = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const PERCENT = '(?:100|[1-9]?\\d)(?:\\.\\d+)?%';
const ALPHA = '(?:0|1|0?\\.\\d+|(?:100|[1-9]?\\d)(?:\\.\\d+)?%)';
const RGB = new RegExp(
  `^rgba?\\(\\s*(?:${BYTE}\\s*,\\s*${BYTE}\\s*,\\s*${BYTE}|${PERCENT}\\s*,\\s*${PERCENT}\\s*,\\s*${PERCENT})(?:\\s*,\\s*${ALPHA})?\\s*\\)$`,
);
const HUE = '(?:-?\\d{1,3}(?:\\.\\d+)?)(?:deg)?';
const HSL = new RegExp(`^hsla?\\(\\s*${HUE}\\s*,\\s*${PERCENT}\\s*,\\s*${PERCENT}(?:\\s*,\\s*${ALPHA})?\\s*\\)$`);
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** §5: a colour input must be a valid hex, rgb or hsl value. */
export function isColour(value: string): boolean {
  const text = value.trim();
  return HEX.test(text) || RGB.test(text) || HSL.test(text);
}

/** Date formats of §4a: year-month, year-month-day, with time, second and millisecond timestamps. */
export const DATE_FORMATS = ['yearMonth', 'yearMonthDay', 'dateTime', 'timestampSeconds', 'timestampMillis'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** Number display formats of §4a: percent and per-mille (the stored value is the plain number). */
export const NUMBER_FORMATS = ['plain', 'percent', 'perMille'] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];

const DATE_PATTERNS: Record<'yearMonth' | 'yearMonthDay' | 'dateTime', RegExp> = {
  yearMonth: /^(\d{4})-(\d{2})$/,
  yearMonthDay: /^(\d{4})-(\d{2})-(\d{2})$/,
  dateTime: /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/,
};

/** A stored date value in its field's format: `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DD HH:mm:ss`, or an integer timestamp. */
export function isDateValue(value: unknown, format: DateFormat): boolean {
  if (format === 'timestampSeconds' || format === 'timestampMillis') {
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
  }
  if (typeof value !== 'string') return false;
  const match = DATE_PATTERNS[format].exec(value);
  if (!match) return false;
  const [, y, m, d = '01', hh = '00', mm = '00', ss = '00'] = match;
  return isRealDate(Number(y), Number(m), Number(d)) && isTime(Number(hh), Number(mm), Number(ss));
}

function isTime(h: number, m: number, s: number): boolean {
  return h < 24 && m < 60 && s < 60;
}

/** `HH:mm:ss` or `HH:mm`. */
export function isTimeValue(value: unknown, withSeconds: boolean): boolean {
  if (typeof value !== 'string') return false;
  const match = (withSeconds ? /^(\d{2}):(\d{2}):(\d{2})$/ : /^(\d{2}):(\d{2})$/).exec(value);
  return !!match && isTime(Number(match[1]), Number(match[2]), Number(match[3] ?? 0));
}

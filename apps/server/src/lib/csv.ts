/** A cell a spreadsheet would run as a formula if it started the cell unescaped. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * RFC 4180 CSV with a UTF-8 byte-order mark (so that spreadsheets read Chinese text right) and CRLF
 * line ends. Cells that would start a formula are prefixed with an apostrophe (CSV injection).
 */
/** One CSV line (CRLF-terminated) of `cells`, escaped as `toCsv` does. */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(cell).join(',')}\r\n`;
}

export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.js';

describe('toCsv', () => {
  it('writes a BOM, a header and CRLF rows', () => {
    expect(toCsv(['a', 'b'], [[1, 'x']])).toBe('\uFEFFa,b\r\n1,x\r\n');
  });

  it('quotes commas, quotes and line breaks, and leaves empty cells for null', () => {
    expect(toCsv(['v'], [['a,b'], ['say "hi"'], ['two\nlines'], [null]])).toBe(
      '\uFEFFv\r\n"a,b"\r\n"say ""hi"""\r\n"two\nlines"\r\n\r\n',
    );
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    expect(toCsv(['v'], [['=1+1'], ['+SUM(A1)'], ['-2'], ['@cmd']])).toBe(
      "\uFEFFv\r\n'=1+1\r\n'+SUM(A1)\r\n'-2\r\n'@cmd\r\n",
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isColour, isIdCard } from './formats.js';
import { identifierProblem } from './identifier.js';
import { brokenRules, checkValues } from './record.js';
import { FIELD_REGISTRY, FIELD_TYPES } from './registry.js';
import { type Field, fieldSchema, tableDefinition } from './table.js';

const FORBIDDEN = [...'.$@%^&*()=+{}[]:;\'"`<>,?/|\\'];

/** Control characters and the format characters the generator can make (U+202E, zero widths, BOM). */
const invisible = (char: string) => {
  const code = char.codePointAt(0) ?? 0;
  const ranges = [
    [0, 0x1f],
    [0x7f, 0x9f],
    [0x200b, 0x200f],
    [0x202a, 0x202e],
    [0x2060, 0x2064],
    [0xfeff, 0xfeff],
  ];
  return ranges.some(([low = 0, high = 0]) => code >= low && code <= high);
};

/** A reference reading of §5's identifier rules, written independently of identifierProblem's order. */
function allowed(name: string, isText: boolean): boolean {
  if (name === '' || name.length > 64) return false;
  if (!/^[a-zA-Z]/.test(name) || [...name].some(invisible)) return false;
  if (/\s/u.test(name) || /^\d+$/.test(name) || name === 'ID') return false;
  if (FORBIDDEN.some((char) => name.includes(char))) return false;
  if (name === 'id') return isText;
  return !/id$/i.test(name);
}

const identifierChars = fc.constantFrom(...'abcXYZ019_$ .@-中é#dDiI\u202e\u0007'.split(''), ...FORBIDDEN);

describe('field identifiers (§5)', () => {
  it('agree with the rules as listed, for any text', () => {
    fc.assert(
      fc.property(
        fc.array(identifierChars, { maxLength: 12 }).map((chars) => chars.join('')),
        fc.boolean(),
        (name, isText) => {
          expect(identifierProblem(name, isText) === undefined).toBe(allowed(name, isText));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('name the rule broken', () => {
    expect(identifierProblem('', true)).toBe('field.idEmpty');
    expect(identifierProblem('1abc', true)).toBe('field.idFirstChar');
    expect(identifierProblem('_abc', true)).toBe('field.idFirstChar');
    expect(identifierProblem('$abc', true)).toBe('field.idFirstChar');
    expect(identifierProblem('名称', true)).toBe('field.idFirstChar');
    expect(identifierProblem('éclair', true)).toBe('field.idFirstChar');
    expect(identifierProblem('\u202Ename', true)).toBe('field.idFirstChar');
    expect(identifierProblem('-abc', true)).toBe('field.idFirstChar');
    expect(identifierProblem('na\u202Eme', true)).toBe('field.idInvisible');
    expect(identifierProblem('a b', true)).toBe('field.idSpace');
    expect(identifierProblem('ID', true)).toBe('field.idIsID');
    expect(identifierProblem('a.b', true)).toBe('field.idSymbol');
    expect(identifierProblem('a\\b', true)).toBe('field.idSymbol');
    expect(identifierProblem('userId', true)).toBe('field.idEndsWithId');
    expect(identifierProblem('userID', true)).toBe('field.idEndsWithId');
    expect(identifierProblem('id', false)).toBe('field.idOnlyText');
    expect(identifierProblem('id', true)).toBeUndefined();
    expect(identifierProblem('a1_名', false)).toBeUndefined();
    expect(identifierProblem('a-b', false)).toBeUndefined();
  });
});

describe('formats', () => {
  it('check ID card numbers with their check character and birth date', () => {
    expect(isIdCard('11010519491231002X')).toBe(true);
    expect(isIdCard('110105194912310021')).toBe(false);
    expect(isIdCard('110105194902300020')).toBe(false);
    expect(isIdCard('11010519491231002')).toBe(false);
  });

  it('take hex, rgb and hsl colours only', () => {
    for (const good of ['#fff', '#FFAA00', '#ffaa0080', 'rgb(255, 0, 10)', 'rgba(0,0,0,0.5)', 'hsl(120, 50%, 40%)'])
      expect(isColour(good), good).toBe(true);
    for (const bad of ['red', '#ggg', '#12345', 'rgb(256,0,0)', 'hsl(1,2,3)', 'rgb(1,2)', ''])
      expect(isColour(bad), bad).toBe(false);
  });
});

function field(partial: Record<string, unknown>): Field {
  return fieldSchema.parse({ title: 'T', options: {}, ...partial });
}

describe('field options', () => {
  it('refuse duplicate choice values, a default beyond the count limit, min above max and bad colours', () => {
    const choices = (options: unknown) =>
      fieldSchema.safeParse({ name: 'c', title: 'C', type: 'multiSelect', options });
    const messages = (result: ReturnType<typeof choices>) => result.error?.issues.map((issue) => issue.message) ?? [];
    expect(messages(choices({ options: [{ value: 'a' }, { value: 'a' }] }))).toContain('field.choiceDuplicate');
    expect(
      messages(choices({ options: [{ value: 'a' }, { value: 'b' }], maxSelected: 1, default: ['a', 'b'] })),
    ).toContain('field.defaultTooMany');
    expect(messages(choices({ options: [{ value: 'a', color: 'blue' }] }))).toContain('field.colour');
    expect(choices({ options: [{ value: 'a', color: '#00f' }], default: ['a'] }).success).toBe(true);
    const number = fieldSchema.safeParse({ name: 'n', title: 'N', type: 'number', options: { min: 5, max: 1 } });
    expect(number.error?.issues.map((issue) => issue.message)).toEqual(['field.maxBelowMin', 'field.minAboveMax']);
    const sub = fieldSchema.safeParse({
      name: 's',
      title: 'S',
      type: 'subTable',
      options: { minRows: 3, maxRows: 2, fields: [{ name: 'a', title: 'A', type: 'text' }] },
    });
    expect(sub.error?.issues.map((issue) => issue.message)).toContain('field.subTableMaxBelowMin');
  });

  it('has a default options value for every type but choices and references', () => {
    const needsOptions = new Set(['select', 'multiSelect', 'subTable', 'formula', 'lookup', 'relation']);
    for (const type of FIELD_TYPES) {
      const parsed = FIELD_REGISTRY[type].options.safeParse({});
      expect(parsed.success, type).toBe(!needsOptions.has(type));
    }
  });

  it('checks the definition: identifiers, duplicates, associated field, rules', () => {
    const result = tableDefinition.safeParse({
      internal: false,
      fields: [
        { name: 'userId', title: 'U', type: 'text' },
        { name: 'a', title: 'A', type: 'text' },
        { name: 'a', title: 'A2', type: 'number' },
      ],
      rules: [{ trigger: 'create', field: 'a' }],
    });
    const issues = result.error?.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`) ?? [];
    expect(issues).toEqual([
      'fields.0.name:field.idEndsWithId',
      'fields.2.name:table.fieldDuplicate',
      'associatedField:table.associatedField',
      'rules.0:table.ruleIncomplete',
    ]);
  });
});

describe('record values', () => {
  const text = (kind: string) => field({ name: 'v', type: 'text', options: { kind } });

  it('check the text kinds: email, phone, mobile and ID card', () => {
    const check = (kind: string, value: string) =>
      checkValues([text(kind)], { v: value }, 'create', undefined).problems;
    expect(check('email', 'a@b.cn')).toEqual([]);
    expect(check('email', 'a@b')).toEqual([{ path: 'v', message: 'value.email' }]);
    expect(check('mobile', '13812345678')).toEqual([]);
    expect(check('mobile', '12812345678')).toEqual([{ path: 'v', message: 'value.mobile' }]);
    expect(check('phone', '010-12345678')).toEqual([]);
    expect(check('phone', 'call me')).toEqual([{ path: 'v', message: 'value.phone' }]);
    expect(check('idCard', '11010519491231002X')).toEqual([]);
    expect(check('idCard', '110105194912310021')).toEqual([{ path: 'v', message: 'value.idCard' }]);
  });

  it('number values: any in range with the allowed decimals pass, others are refused', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: -100_000, max: 100_000 }),
        (decimals, min, span, scaled) => {
          const f = field({ name: 'n', type: 'number', options: { decimals, min, max: min + span } });
          const value = scaled / 10 ** Math.min(decimals, 3);
          const { problems } = checkValues([f], { n: value }, 'create', undefined);
          const inRange = value >= min && value <= min + span;
          expect(problems.length === 0).toBe(inRange);
          if (!inRange) expect(problems[0]?.message).toBe(value < min ? 'value.belowMin' : 'value.aboveMax');
        },
      ),
    );
    const whole = field({ name: 'n', type: 'number' });
    expect(checkValues([whole], { n: 1.5 }, 'create', undefined).problems[0]?.message).toBe('value.integer');
    const two = field({ name: 'n', type: 'number', options: { decimals: 2 } });
    expect(checkValues([two], { n: 1.234 }, 'create', undefined).problems[0]).toEqual({
      path: 'n',
      message: 'value.decimals',
      params: { n: 2 },
    });
  });

  it('choice values: only the options, no repeats, at most maxSelected', () => {
    const options = ['red', 'green', 'blue', 'grey'];
    const f = field({
      name: 'm',
      type: 'multiSelect',
      options: { options: options.map((value) => ({ value })), maxSelected: 2 },
    });
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...options, 'pink'), { maxLength: 5 }), (chosen) => {
        const { problems } = checkValues([f], { m: chosen }, 'update', {});
        const ok = !chosen.includes('pink') && new Set(chosen).size === chosen.length && chosen.length <= 2;
        expect(problems.length === 0).toBe(ok);
      }),
    );
  });

  it('dates, ranges, ratings, media, links and byte arrays follow their options', () => {
    const cases: Array<[Record<string, unknown>, unknown, boolean]> = [
      [{ type: 'date', options: { format: 'yearMonthDay' } }, '2024-02-29', true],
      [{ type: 'date', options: { format: 'yearMonthDay' } }, '2023-02-29', false],
      [{ type: 'date', options: { format: 'dateTime' } }, '2024-01-01 23:59:59', true],
      [{ type: 'date', options: { format: 'timestampMillis' } }, 1_700_000_000_000, true],
      [{ type: 'dateRange', options: { format: 'yearMonth' } }, ['2024-01', '2024-03'], true],
      [{ type: 'dateRange', options: { format: 'yearMonth' } }, ['2024-05', '2024-03'], false],
      [{ type: 'time' }, '23:10:00', true],
      [{ type: 'time' }, '24:10:00', false],
      [{ type: 'rating', options: { max: 5 } }, 5, true],
      [{ type: 'rating', options: { max: 5 } }, 6, false],
      [{ type: 'rating', options: { max: 10 } }, 10, true],
      [{ type: 'location' }, { lng: 116.4, lat: 39.9 }, true],
      [{ type: 'location' }, { lng: 200, lat: 0 }, false],
      [{ type: 'image' }, [{ url: '/a.png', name: 'a.png', size: 10, type: 'image/png' }], true],
      [{ type: 'image' }, [{ url: '/a.exe', name: 'a.exe', size: 10 }], false],
      // A media library file: its path must be one the library accepts.
      [{ type: 'file' }, [{ url: 'media:records/x1-a.pdf', name: 'a.pdf', size: 10 }], true],
      [{ type: 'file' }, [{ url: 'media:../other/a.pdf', name: 'a.pdf', size: 10 }], false],
      [{ type: 'file' }, [{ url: 'media:/etc/passwd', name: 'passwd', size: 10 }], false],
      [{ type: 'video', options: { maxSizeMB: 1 } }, [{ url: '/v.mp4', name: 'v.mp4', size: 2 * 1024 * 1024 }], false],
      [{ type: 'audio' }, [{ url: '/a.mp3', name: 'a.mp3', size: 1, type: 'audio/mpeg' }], true],
      [{ type: 'link' }, 'https://example.com/x', true],
      [{ type: 'link' }, 'javascript:alert(1)', false],
      [{ type: 'byteArray' }, 'aGVsbG8=', true],
      [{ type: 'byteArray' }, 'not base64!', false],
      [{ type: 'region', options: { level: 'city' } }, ['110000', '110100'], true],
      [{ type: 'region', options: { level: 'province' } }, ['110000', '110100'], false],
      [{ type: 'boolean' }, 'yes', false],
    ];
    for (const [spec, value, ok] of cases) {
      const f = field({ name: 'v', ...spec });
      const { problems } = checkValues([f], { v: value }, 'create', undefined);
      expect(problems.length === 0, `${JSON.stringify(spec)} ${JSON.stringify(value)}`).toBe(ok);
    }
  });

  it('sub-tables: min and max rows, duplicate rows, their cells checked', () => {
    const f = field({
      name: 'items',
      type: 'subTable',
      options: {
        minRows: 1,
        maxRows: 2,
        noDuplicateRows: true,
        fields: [{ name: 'qty', title: 'Q', type: 'number', options: { min: 0 } }],
      },
    });
    const check = (rows: unknown) => checkValues([f], { items: rows }, 'create', undefined).problems;
    expect(check([])).toEqual([{ path: 'items', message: 'value.required' }]);
    expect(check([{ qty: 1 }])).toEqual([]);
    expect(check([{ qty: 1 }, { qty: 1 }])).toEqual([{ path: 'items', message: 'value.subTableDuplicate' }]);
    expect(check([{ qty: 1 }, { qty: 2 }, { qty: 3 }])).toEqual([
      { path: 'items', message: 'value.subTableTooMany', params: { max: 2 } },
    ]);
    expect(check([{ qty: -1 }])).toEqual([{ path: 'items.0.qty', message: 'value.belowMin' }]);
  });

  it('required, unknown, read-only and computed values; defaults on create', () => {
    const fields = [
      field({ name: 'name', type: 'text', required: true }),
      field({ name: 'code', type: 'text', readOnly: true }),
      field({ name: 'no', type: 'autoNumber' }),
      field({ name: 'state', type: 'select', options: { options: [{ value: 'open' }], default: 'open' } }),
    ];
    expect(checkValues(fields, { code: 'x', no: 'forged' }, 'create', undefined)).toEqual({
      values: { code: 'x', state: 'open' },
      problems: [{ path: 'name', message: 'value.required' }],
    });
    expect(checkValues(fields, { code: 'y', bogus: 1 }, 'update', { code: 'x' }).problems).toEqual([
      { path: 'bogus', message: 'value.unknownField' },
      { path: 'code', message: 'value.readOnly' },
    ]);
    expect(checkValues(fields, { name: '' }, 'update', {}).problems).toEqual([
      { path: 'name', message: 'value.required' },
    ]);
  });

  it('field rules refuse a write whose condition holds, for their trigger', () => {
    const definition = {
      rules: [
        {
          trigger: 'edit' as const,
          hint: 'toast' as const,
          field: 'qty',
          operator: 'gt' as const,
          value: 10,
          content: 'too many',
        },
      ],
    };
    expect(brokenRules(definition, { qty: 11 }, 'update')).toEqual([
      { field: 'qty', content: 'too many', hint: 'toast' },
    ]);
    expect(brokenRules(definition, { qty: 11 }, 'create')).toEqual([]);
    expect(brokenRules(definition, { qty: 10 }, 'update')).toEqual([]);
  });
});

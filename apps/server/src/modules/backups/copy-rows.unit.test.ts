import { isUtf8 } from 'node:buffer';
import { BACKUP_LIMITS, DOCUMENT_LIMITS } from '@gantry/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import { parseDocumentLine } from './backup-archive.js';
import { type CopyRun, type CopyTarget, copyRows, RowBuffers, refusedRow } from './copy-rows.js';

/**
 * copyRows against the rules verification applies (`parseDocumentLine`). A line exactly as our dumps
 * write it (and no retarget) becomes a COPY row, read back here through a strict decoder of
 * PostgreSQL's binary COPY (signature, field counts and lengths, jsonb's version byte, times as
 * microseconds since 2000): it must hold what verification read from the line, its doc's bytes as
 * the line holds them. Any other line verification accepts is handed on whole and unchanged
 * (`others`, with its line number); any line it refuses is a `badDocument` of the module at its line.
 */

/** The binary COPY's signature, flags and header extension length (PostgreSQL's COPY documentation). */
const SIGNATURE = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** 2000-01-01T00:00:00Z, PostgreSQL's epoch, in JavaScript's milliseconds. */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);

interface Row {
  projectId: string;
  module: string;
  id: string;
  doc: string;
  createTime: string;
  updateTime: string;
}

/**
 * Rows as PostgreSQL's binary COPY reads them, strictly (none: no bytes): the signature first; each tuple of six
 * fields, none NULL, each within the bytes, its texts valid UTF-8; the doc after jsonb's version
 * byte 1; each time 8 bytes of whole milliseconds; the trailer (-1) last and nothing after it.
 */
function decodeRows(rows: Buffer): Row[] {
  // No rows, no COPY: nothing at all.
  if (rows.length === 0) return [];
  expect(rows.subarray(0, SIGNATURE.length)).toEqual(SIGNATURE);
  let at = SIGNATURE.length;
  const field = (): Buffer => {
    const length = rows.readInt32BE(at);
    at += 4;
    if (length < 0 || at + length > rows.length) throw new Error(`field length ${length} at ${at - 4}`);
    at += length;
    return rows.subarray(at - length, at);
  };
  const text = (bytes: Buffer): string => {
    if (!isUtf8(bytes)) throw new Error(`not UTF-8: ${bytes.toString('hex')}`);
    return bytes.toString('utf8');
  };
  const time = (bytes: Buffer): string => {
    expect(bytes).toHaveLength(8);
    const micros = bytes.readBigInt64BE(0);
    expect(micros % 1000n).toBe(0n);
    return new Date(Number(micros / 1000n) + PG_EPOCH_MS).toISOString();
  };
  const decoded: Row[] = [];
  for (;;) {
    const fields = rows.readInt16BE(at);
    at += 2;
    if (fields === -1) {
      expect(at).toBe(rows.length);
      return decoded;
    }
    expect(fields).toBe(6);
    const projectId = text(field());
    const module = text(field());
    const id = text(field());
    const jsonb = field();
    expect(jsonb[0]).toBe(1);
    decoded.push({
      projectId,
      module,
      id,
      doc: text(jsonb.subarray(1)),
      createTime: time(field()),
      updateTime: time(field()),
    });
  }
}

const target = (retarget = { from: 'p1', to: 'p1' }): CopyTarget => ({
  projectId: 'p1',
  module: 'things',
  retarget,
});
const MOVED = target({ from: 'p1', to: 'p2' });
/** copyRows into fresh buffers. */
const copy = (bytes: Buffer, firstLine: number, to: CopyTarget = target()) =>
  copyRows(bytes, firstLine, to, new RowBuffers(0));
const run = (...lines: string[]) => Buffer.from(lines.map((line) => `${line}\n`).join(''));

/** What copyRows made of a run: its rows decoded, its other lines and their numbers. */
function outcome(copied: CopyRun) {
  const rows = decodeRows(copied.rows);
  expect(copied.count).toBe(rows.length);
  expect(copied.otherLines).toHaveLength(copied.others.length);
  return { rows, others: copied.others, otherLines: copied.otherLines };
}

/** The problem copyRows throws (failing the test when it throws nothing or something else). */
function refusal(bytes: Buffer, firstLine: number, to: CopyTarget): ArchiveProblem {
  let copied: CopyRun | undefined;
  try {
    copied = copy(bytes, firstLine, to);
  } catch (error) {
    if (error instanceof ArchiveProblem) return error;
    throw error;
  }
  throw new Error(
    `accepted, as rows ${JSON.stringify(copied.rows.toString('utf8'))} and others ${JSON.stringify(copied.others)}`,
  );
}

function expectBadDocument(bytes: Buffer, firstLine: number, line: number, to: CopyTarget = target()): void {
  const problem = refusal(bytes, firstLine, to);
  expect(problem.problem).toBe('badDocument');
  expect(problem.params).toEqual({ module: to.module, line });
}

const TIME = '2024-01-31T08:00:00.000Z';
const LATER = '2024-02-01T09:30:15.123Z';

/** A line in the dump's exact form, from raw texts (the id's JSON, the times, the doc's JSON). */
const dumpLine = (idJson: string, created: string, updated: string, docJson: string) =>
  `{"id":${idJson},"createTime":"${created}","updateTime":"${updated}","doc":${docJson}}`;
/** The same line in another form: keys reordered, whitespace around everything (never a row). */
const spacedLine = (idJson: string, created: string, updated: string, docJson: string) =>
  `{ "doc" : ${docJson} ,\t"updateTime": "${updated}", "id": ${idJson} , "createTime" :"${created}" }`;
const FORMS = { dump: dumpLine, spaced: spacedLine };

/** The doc as PostgreSQL's `jsonb::text` writes it (what dumps hold): a space after `:` and `,`. */
function pgJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pgJson).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${pgJson(item)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/** Asserts a decoded row holds a line's fields as verification read them, the doc's and times' bytes as the line holds them. */
function expectRowOf(
  row: Row | undefined,
  line: string,
  to: CopyTarget,
  texts: { docJson: string; created: string; updated: string },
): void {
  const want = parseDocumentLine(line);
  if (!want) throw new Error(`verification refuses a line expected as a row: ${JSON.stringify(line)}`);
  expect(row).toBeDefined();
  if (!row) return;
  expect(row.projectId).toBe(to.projectId);
  expect(row.module).toBe(to.module);
  expect(row.id).toBe(want.id);
  expect(row.doc).toBe(texts.docJson);
  expect(JSON.parse(row.doc)).toEqual(want.doc);
  expect(row.createTime).toBe(texts.created);
  expect(row.updateTime).toBe(texts.updated);
  expect(Date.parse(row.createTime)).toBe(want.createTime.getTime());
  expect(Date.parse(row.updateTime)).toBe(want.updateTime.getTime());
  // The very text `toISOString()` gives: an instant PostgreSQL reads as JavaScript does.
  expect(row.createTime).toBe(want.createTime.toISOString());
  expect(row.updateTime).toBe(want.updateTime.toISOString());
}

/** The fields of a line exactly in the dump's form, by a pattern (independent of copy-rows.ts). */
const DUMP_SHAPE = /^\{"id":"([^"]*)","createTime":"([^"]*)","updateTime":"([^"]*)","doc":(\{.*\})\}$/s;
const ISO_SHAPE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** An id the dump writes unescaped: 1 to idMax bytes, no backslash, no control character. */
const plainId = (id: string) =>
  id !== '' && Buffer.byteLength(id) <= DOCUMENT_LIMITS.idMax && [...id].every((char) => char >= ' ' && char !== '\\');
/** `toISOString()`'s text of a real instant (year 1 or later: PostgreSQL has no year 0). */
const realTime = (time: string) =>
  ISO_SHAPE.test(time) &&
  !time.startsWith('0000') &&
  !Number.isNaN(Date.parse(time)) &&
  new Date(time).toISOString() === time;

/** The fields of a line in the dump's form (plain id, real times), or undefined. */
function dumpFields(line: string) {
  const match = DUMP_SHAPE.exec(line);
  if (!match) return undefined;
  const [, id = '', created = '', updated = '', docJson = ''] = match;
  if (!plainId(id) || !realTime(created) || !realTime(updated)) return undefined;
  return { id, created, updated, docJson };
}

/** Raw control characters of a JSON text: inside its strings (after a backslash too), outside them but a tab. */
function rawControls(json: string): string[] {
  const found: string[] = [];
  let inString = false;
  for (let at = 0; at < json.length; at++) {
    const char = json[at] ?? '';
    if (inString && char === '\\') {
      const escaped = json[++at] ?? '';
      if (escaped !== '' && escaped < ' ') found.push(escaped);
    } else if (char === '"') {
      inString = !inString;
    } else if (char < ' ' && (inString || char !== '\t')) {
      found.push(char);
    }
  }
  return found;
}

const parsesAsJson = (value: string) => {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
};

/**
 * A line verification accepts, exactly in the dump's form (its doc one JSON value, no key after it),
 * with no raw carriage return in its doc: nothing but a retarget keeps it from being a row.
 */
function mustBeRow(line: string): boolean {
  const fields = dumpFields(line);
  return (
    parseDocumentLine(line) !== undefined &&
    fields !== undefined &&
    parsesAsJson(fields.docJson) &&
    !fields.docJson.includes('\r')
  );
}

type Nesting = 'objects' | 'arrays' | 'mixed';
/**
 * A doc of `depth` (2 or more) nested containers (the doc itself is 1), objects, arrays or both; the
 * innermost holds a number (`filled`) or nothing.
 */
function deepDoc(depth: number, kind: Nesting, filled: boolean): string {
  let inner = filled ? '1' : '';
  for (let level = depth; level >= 2; level--) {
    const array = kind === 'arrays' || (kind === 'mixed' && level % 2 === 0);
    inner = array ? `[${inner}]` : inner === '' ? '{}' : `{"k":${inner}}`;
  }
  return `{"a":${inner}}`;
}

/** Nesting after strings full of brackets, an escaped quote and an escaped backslash (none of which nest). */
const trickyDeepDoc = (depth: number, filled: boolean) =>
  `{"s":"${'['.repeat(40)}\\"${'{'.repeat(40)}","e":"\\\\","d":${deepDoc(depth - 1, 'mixed', filled)}}`;

// ---------------------------------------------------------------------------------------------------
// Generators

/** Characters for ids, keys and strings: printable, non-ASCII, what JSON must escape, and control bytes. */
const anyChar = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((char) => char !== '\u0000'),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '"',
      '\\',
      '\x01',
      '\x02',
      '\x02\x02',
      '\n',
      '\r',
      '\t',
      '\x7f',
      'é',
      '😀',
      '\u2028',
      '{',
      '[',
      '}',
      ']',
      ',',
      ':',
      // A literal backslash before u0000: not a NUL (verification accepts it).
      '\\u0000',
    ),
  },
);
/** anyChar gives no NUL (verification refuses it) and no lone surrogate (not text PostgreSQL can hold). */
const text = (minLength: number, maxLength: number) => fc.string({ unit: anyChar, minLength, maxLength });

const idArb = fc
  .oneof(
    text(1, 30),
    // Near the limit, where the fast path's byte count and verification's length must agree.
    fc.string({ unit: 'grapheme-ascii', minLength: DOCUMENT_LIMITS.idMax - 3, maxLength: DOCUMENT_LIMITS.idMax }),
    fc.string({ unit: fc.constantFrom('é', 'a', '😀'), minLength: 40, maxLength: 70 }),
  )
  .map((id) => id.slice(0, DOCUMENT_LIMITS.idMax).replace(/\p{Cs}/gu, ''))
  .filter((id) => id !== '');

const jsonArb = fc.jsonValue({ maxDepth: 3, stringUnit: anyChar });
const projectIds = ['p1', 'p2', 'p\x02"3\\'];
const docArb = fc.record({
  fields: fc.dictionary(text(0, 8), jsonArb, { maxKeys: 6 }),
  projectId: fc.constantFrom('from', 'to', 'other', 'none', 'nested', 'number'),
});
/** Years 1 to 9999: `toISOString()` is then the 24 bytes the dump writes. */
const timeArb = fc.date({
  min: new Date('0001-01-01T00:00:00.000Z'),
  max: new Date('9999-12-31T23:59:59.999Z'),
  noInvalidDate: true,
});
const offsetArb = fc.integer({ min: -14 * 60, max: 14 * 60 });
/**
 * Times of `toISOString()`'s shape that name no real instant, though JavaScript (verification) reads
 * them, rolled over: never a row (PostgreSQL would read them otherwise, or not at all).
 */
const ODD_TIMES = [
  '2024-02-30T00:00:00.000Z',
  '2023-02-29T12:00:00.000Z',
  '1900-02-29T00:00:00.000Z',
  '2024-04-31T23:59:59.999Z',
  '2024-01-01T24:00:00.000Z',
  '0000-01-01T00:00:00.000Z',
];

type Form =
  | 'dump'
  | 'pgDump'
  | 'tabbed'
  | 'rawCr'
  | 'reordered'
  | 'spaced'
  | 'offsetTimes'
  | 'crlf'
  | 'extraKey'
  | 'oddCreated'
  | 'oddUpdated';
const formArb = fc.constantFrom<Form>(
  'dump',
  'pgDump',
  'tabbed',
  'rawCr',
  'reordered',
  'spaced',
  'offsetTimes',
  'crlf',
  'extraKey',
  'oddCreated',
  'oddUpdated',
);

/** An instant written with an offset from UTC (another form verification reads as the same instant). */
function withOffset(time: Date, wanted: number): string {
  // Kept within years 1 to 9999 (the other way round near either end).
  const year = new Date(time.getTime() + wanted * 60_000).getUTCFullYear();
  const minutes = year < 1 || year > 9999 ? -wanted : wanted;
  const local = new Date(time.getTime() + minutes * 60_000).toISOString().slice(0, 23);
  const size = Math.abs(minutes);
  const hours = String(Math.floor(size / 60)).padStart(2, '0');
  return `${local}${minutes < 0 ? '-' : '+'}${hours}:${String(size % 60).padStart(2, '0')}`;
}

interface Built {
  line: string;
  /** The doc's JSON, and the times, exactly as the line holds them. */
  docJson: string;
  created: string;
  updated: string;
  /** Whether the line is exactly in the dump's form (a row when there is no retarget). */
  dumpForm: boolean;
}

function buildLine(
  form: Form,
  id: string,
  created: Date,
  updated: Date,
  doc: Record<string, unknown>,
  offset: number,
  odd: string,
): Built {
  const idJson = JSON.stringify(id);
  const json = form === 'pgDump' ? pgJson(doc) : JSON.stringify(doc);
  const c = created.toISOString();
  const u = updated.toISOString();
  const dump = dumpLine(idJson, c, u, json);
  const simpleId = idJson === `"${id}"` && Buffer.byteLength(id) <= DOCUMENT_LIMITS.idMax;
  const built = (line: string, dumpForm: boolean, docJson = json, cc = c, uu = u): Built => ({
    line,
    docJson,
    created: cc,
    updated: uu,
    dumpForm,
  });
  switch (form) {
    case 'dump':
    case 'pgDump':
      return built(dump, simpleId);
    case 'tabbed': {
      // A raw tab between the doc's values: JSON whitespace, harmless in the COPY.
      const docJson = `{\t${json.slice(1, -1)}\t}`;
      return built(dumpLine(idJson, c, u, docJson), simpleId, docJson);
    }
    case 'rawCr': {
      // A raw carriage return between the doc's values: JSON whitespace, but never passed on raw.
      const docJson = `{\r${json.slice(1)}`;
      return built(dumpLine(idJson, c, u, docJson), false, docJson);
    }
    case 'reordered':
      return built(JSON.stringify({ doc, updateTime: u, id, createTime: c }), false);
    case 'spaced':
      return built(spacedLine(idJson, c, u, json), false);
    case 'offsetTimes': {
      const cc = withOffset(created, offset);
      const uu = withOffset(updated, -offset);
      return built(dumpLine(idJson, cc, uu, json), false, json, cc, uu);
    }
    case 'crlf':
      return built(`${dump}\r`, false);
    case 'extraKey':
      return built(`${dump.slice(0, -1)},"extra":{"x":[1]}}`, false);
    case 'oddCreated':
      return built(dumpLine(idJson, odd, u, json), false, json, odd, u);
    case 'oddUpdated':
      return built(dumpLine(idJson, c, odd, json), false, json, c, odd);
  }
}

const entryArb = fc.record({
  form: formArb,
  id: idArb,
  created: timeArb,
  updated: timeArb,
  offset: offsetArb,
  odd: fc.constantFrom(...ODD_TIMES),
  doc: docArb,
  blanksBefore: fc.integer({ min: 0, max: 2 }),
});
const targetArb = fc
  .record({
    projectId: text(1, 12),
    module: fc.constantFrom('things', 'users', 'odd\x02module'),
    from: fc.constantFrom(...projectIds),
    to: fc.constantFrom(...projectIds),
    // Most runs without a retarget (rows), the others with one (or not).
    same: fc.boolean(),
  })
  .map(
    ({ projectId, module, from, to, same }): CopyTarget => ({
      projectId,
      module,
      retarget: { from, to: same ? from : to },
    }),
  );

/** The entry's doc, with the `projectId` it was generated to have. */
function docOf(
  entry: { doc: { fields: Record<string, unknown>; projectId: string } },
  retarget: CopyTarget['retarget'],
): Record<string, unknown> {
  const { fields, projectId } = entry.doc;
  switch (projectId) {
    case 'from':
      return { ...fields, projectId: retarget.from };
    case 'to':
      return { ...fields, projectId: retarget.to };
    case 'other':
      return { ...fields, projectId: 'elsewhere' };
    case 'nested':
      return { ...fields, inner: { projectId: retarget.from } };
    case 'number':
      return { ...fields, projectId: 7 };
    default:
      return fields;
  }
}

// ---------------------------------------------------------------------------------------------------

describe('copyRows: each line a row or another line, as verification reads it', () => {
  it('accounts for every line of generated runs exactly once and in order, with or without a retarget', () => {
    fc.assert(
      fc.property(
        fc.array(entryArb, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 100_000 }),
        targetArb,
        (entries, blanksAfter, firstLine, to) => {
          let text = '';
          let line = firstLine;
          const built: { one: Built; line: number }[] = [];
          for (const entry of entries) {
            const one = buildLine(
              entry.form,
              entry.id,
              entry.created,
              entry.updated,
              docOf(entry, to.retarget),
              entry.offset,
              entry.odd,
            );
            line += entry.blanksBefore;
            built.push({ one, line });
            text += `${'\n'.repeat(entry.blanksBefore)}${one.line}\n`;
            line++;
          }
          text += '\n'.repeat(blanksAfter);

          const copied = copy(Buffer.from(text), firstLine, to);
          const { rows, others, otherLines } = outcome(copied);
          const fast = to.retarget.from === to.retarget.to;
          let row = 0;
          let other = 0;
          for (const { one } of built) {
            // Every generated line is one verification accepts, and the generator labels it as the
            // independent pattern reads it.
            expect(parseDocumentLine(one.line)).toBeDefined();
            expect(mustBeRow(one.line)).toBe(one.dumpForm);
          }
          for (const { one, line } of built) {
            if (fast && one.dumpForm) {
              expectRowOf(rows[row], one.line, to, one);
              expect(copied.lineOf(row + 1)).toBe(line);
              row++;
            } else {
              expect(others[other]).toBe(one.line);
              expect(otherLines[other]).toBe(line);
              other++;
            }
          }
          expect(rows).toHaveLength(row);
          expect(copied.count).toBe(row);
          expect(others).toHaveLength(other);
          if (!fast) expect(copied.rows).toHaveLength(0);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('copyRows: rows and other lines', () => {
  it('passes a dump-form doc through byte for byte, and hands any other form on whole and unchanged', () => {
    const docJson = '{"n": 1.0, "big": 12345678901234567890, "s": "a\\/b\\u00e9\\"", "t":\t[]}';
    const line = dumpLine('"é-1"', TIME, LATER, docJson);
    const fast = outcome(copy(run(line), 1));
    expect(fast.rows).toEqual([
      { projectId: 'p1', module: 'things', id: 'é-1', doc: docJson, createTime: TIME, updateTime: LATER },
    ]);
    expect(fast.others).toEqual([]);
    const spaced = spacedLine('"é-1"', TIME, LATER, docJson);
    const slow = outcome(copy(run(spaced), 4));
    expect(slow.rows).toEqual([]);
    expect(slow.others).toEqual([spaced]);
    expect(slow.otherLines).toEqual([4]);
  });

  it('writes the project id and module as they are, the id, doc and times as the line holds them', () => {
    const to: CopyTarget = { projectId: 'p\x02q\x01r\ns', module: 'm\x02', retarget: { from: 'a', to: 'a' } };
    const copied = copy(run(dumpLine('"i-d é"', TIME, LATER, '{"a": [1, "x"]}')), 1, to);
    const int16 = (value: number) => Buffer.from([value >> 8, value & 0xff]);
    const sized = (bytes: Buffer) => {
      const length = Buffer.alloc(4);
      length.writeInt32BE(bytes.length);
      return Buffer.concat([length, bytes]);
    };
    const micros = (time: string) => {
      const bytes = Buffer.alloc(8);
      bytes.writeBigInt64BE(BigInt(Date.parse(time) - PG_EPOCH_MS) * 1000n);
      return bytes;
    };
    expect(copied.rows).toEqual(
      Buffer.concat([
        SIGNATURE,
        int16(6),
        sized(Buffer.from(to.projectId)),
        sized(Buffer.from(to.module)),
        sized(Buffer.from('i-d é')),
        sized(Buffer.concat([Buffer.from([1]), Buffer.from('{"a": [1, "x"]}')])),
        sized(micros(TIME)),
        sized(micros(LATER)),
        int16(-1 & 0xffff),
      ]),
    );
    expect(decodeRows(copied.rows)[0]).toMatchObject({ projectId: to.projectId, module: to.module, id: 'i-d é' });
  });

  it.each([
    ['quote bytes and escapes', JSON.stringify('i\x02d\x01\n"')],
    ['an escaped slash', '"a\\/b"'],
    ['a unicode escape', '"\\u0061"'],
    ['a lone-surrogate escape', '"a\\ud800"'],
    ['idMax + 1 bytes in idMax characters', JSON.stringify(`é${'x'.repeat(DOCUMENT_LIMITS.idMax - 1)}`)],
  ])('hands a dump-form line whose id is not written plain (%s) on whole', (_, idJson) => {
    const line = dumpLine(idJson, TIME, TIME, '{"n": 1.0}');
    expect(parseDocumentLine(line)).toBeDefined();
    const got = outcome(copy(run('', line), 20));
    expect(got.rows).toEqual([]);
    expect(got.others).toEqual([line]);
    expect(got.otherLines).toEqual([21]);
  });

  it('hands numbers on as written (a row keeps every digit; another line is not re-serialised)', () => {
    const docJson = '{"big": 12345678901234567890123, "f": 0.10000000000000000001, "e": 1E400}';
    const fast = outcome(copy(run(dumpLine('"a"', TIME, TIME, docJson)), 1));
    expect(fast.rows.map((row) => row.doc)).toEqual([docJson]);
    const spaced = spacedLine('"a"', TIME, TIME, docJson);
    expect(outcome(copy(run(spaced), 1)).others).toEqual([spaced]);
  });

  it('hands every line on whole under a retarget (the database rewrites projectId), rows none', () => {
    const lines = [
      dumpLine('"a"', TIME, TIME, '{"projectId":"p1","inner":{"projectId":"p1"}}'),
      spacedLine('"b"', TIME, TIME, '{"projectId":"p1"}'),
      dumpLine('"c"', TIME, TIME, '{}'),
    ];
    const copied = copy(Buffer.from(`${lines[0]}\n\n${lines[1]}\n${lines[2]}`), 5, MOVED);
    expect(copied.count).toBe(0);
    expect(copied.rows).toHaveLength(0);
    expect(copied.others).toEqual(lines);
    expect(copied.otherLines).toEqual([5, 7, 8]);
  });

  it('leaves a projectId as the line has it when from === to', () => {
    const line = dumpLine('"a"', TIME, TIME, '{"projectId":"old","inner":{"projectId":"old"}}');
    const { rows } = outcome(copy(run(line), 1, target({ from: 'old', to: 'old' })));
    expect(rows.map((row) => row.doc)).toEqual(['{"projectId":"old","inner":{"projectId":"old"}}']);
  });

  it('keeps a raw tab between dump-form doc values in the row, and hands a raw carriage return on whole', () => {
    const tabbed = dumpLine('"a"', TIME, TIME, '{"s":\t1,\t"t":2}');
    expect(outcome(copy(run(tabbed), 1)).rows.map((row) => row.doc)).toEqual(['{"s":\t1,\t"t":2}']);
    const cr = dumpLine('"a"', TIME, TIME, '{"s":\r1,\t"t":2}');
    expect(parseDocumentLine(cr)?.doc).toEqual({ s: 1, t: 2 });
    const got = outcome(copy(run(cr), 3));
    expect(got.rows).toEqual([]);
    expect(got.others).toEqual([cr]);
    expect(got.otherLines).toEqual([3]);
  });

  it('hands a dump-form line ended by a carriage return on whole, the carriage return with it', () => {
    const line = `${dumpLine('"a"', TIME, TIME, '{}')}\r`;
    const got = outcome(copy(Buffer.from(`${line}\n${line}`), 1));
    expect(got.rows).toEqual([]);
    expect(got.others).toEqual([line, line]);
    expect(got.otherLines).toEqual([1, 2]);
  });

  it('skips empty lines, counts only rows, and takes a last line without its newline in either form', () => {
    const spaced = spacedLine('"c"', TIME, TIME, '{}');
    const bytes = Buffer.from(
      `\n\n${dumpLine('"a"', TIME, TIME, '{}')}\n${spaced}\n\n${dumpLine('"b"', TIME, TIME, '{}')}\n${spaced}`,
    );
    const got = outcome(copy(bytes, 1));
    expect(got.rows.map((row) => row.id)).toEqual(['a', 'b']);
    expect(got.others).toEqual([spaced, spaced]);
    expect(got.otherLines).toEqual([4, 7]);
    const last = outcome(copy(Buffer.from(`\n${dumpLine('"z"', TIME, TIME, '{}')}`), 1));
    expect(last.rows.map((row) => row.id)).toEqual(['z']);
    const none = copy(Buffer.from('\n\n\n'), 1);
    expect(none.count).toBe(0);
    expect(none.rows).toHaveLength(0);
    expect(none.others).toEqual([]);
    expect(copy(Buffer.alloc(0), 1).count).toBe(0);
  });

  it('writes many rows with a long project id and module (rows longer than their lines)', () => {
    const to: CopyTarget = {
      projectId: 'p'.repeat(3000),
      module: 'm'.repeat(3000),
      retarget: { from: 'p1', to: 'p1' },
    };
    const lines = Array.from({ length: 500 }, (_, index) => dumpLine(`"${index}"`, TIME, TIME, '{"projectId":"p1"}'));
    const { rows, others } = outcome(copy(run(...lines), 1, to));
    expect(others).toEqual([]);
    expect(rows.map((row) => row.id)).toEqual(lines.map((_, index) => String(index)));
    expect(
      rows.every(
        (row) => row.projectId === to.projectId && row.module === to.module && row.doc === '{"projectId":"p1"}',
      ),
    ).toBe(true);
  });
});

describe('copyRows: refuses what verification refuses, as badDocument of the module at its line', () => {
  const firstLine = 41;
  /** The bad line third (after a good line and an empty one), a good line after it: line firstLine + 2. */
  function expectRefused(bad: string, to: CopyTarget = target()): void {
    expect(parseDocumentLine(bad)).toBeUndefined();
    const good = dumpLine('"good"', TIME, TIME, '{"a":1}');
    expectBadDocument(Buffer.from(`${good}\n\n${bad}\n${good}\n`), firstLine, firstLine + 2, to);
  }
  /** Accepted, as a row (a plain dump-form line) or whole among the others (any other line). */
  function expectAccepted(line: string): void {
    expect(parseDocumentLine(line)).toBeDefined();
    const got = outcome(copy(run('', line), firstLine));
    const fields = dumpFields(line);
    if (fields) {
      expect(got.others).toEqual([]);
      expect(got.rows).toHaveLength(1);
      expectRowOf(got.rows[0], line, target(), fields);
    } else {
      expect(got.rows).toEqual([]);
      expect(got.others).toEqual([line]);
      expect(got.otherLines).toEqual([firstLine + 1]);
    }
    // Under a retarget, whole among the others either way.
    const moved = outcome(copy(run(line), firstLine, MOVED));
    expect(moved.rows).toEqual([]);
    expect(moved.others).toEqual([line]);
  }

  describe.each(Object.entries(FORMS))('in the %s form', (name, form) => {
    it.each(['objects', 'arrays', 'mixed'] as const)('a doc nested 33 deep (%s), but not 32', (kind) => {
      expectRefused(form('"a"', TIME, TIME, deepDoc(DOCUMENT_LIMITS.depth + 1, kind, true)));
      expectRefused(form('"a"', TIME, TIME, deepDoc(DOCUMENT_LIMITS.depth + 1, kind, false)));
      expectRefused(form('"a"', TIME, TIME, deepDoc(DOCUMENT_LIMITS.depth + 1, kind, false)), MOVED);
      // 32 containers, the innermost empty or holding a value: taken (depthOf counts containers only).
      expectAccepted(form('"a"', TIME, TIME, deepDoc(DOCUMENT_LIMITS.depth, kind, false)));
      expectAccepted(form('"a"', TIME, TIME, deepDoc(DOCUMENT_LIMITS.depth, kind, true)));
      expectAccepted(form('"a"', TIME, TIME, deepDoc(DOCUMENT_LIMITS.depth - 1, kind, true)));
    });

    it('a doc nested 33 deep after strings of brackets and escapes, but not 32', () => {
      expectRefused(form('"a"', TIME, TIME, trickyDeepDoc(DOCUMENT_LIMITS.depth + 1, false)));
      expectRefused(form('"a"', TIME, TIME, trickyDeepDoc(DOCUMENT_LIMITS.depth + 1, true)));
      expectAccepted(form('"a"', TIME, TIME, trickyDeepDoc(DOCUMENT_LIMITS.depth, false)));
      expectAccepted(form('"a"', TIME, TIME, trickyDeepDoc(DOCUMENT_LIMITS.depth, true)));
    });

    it.each([
      ['an empty id', '""'],
      ['an id of idMax + 1 characters', JSON.stringify('x'.repeat(DOCUMENT_LIMITS.idMax + 1))],
      ['an id of idMax + 1 non-ASCII characters', JSON.stringify('é'.repeat(DOCUMENT_LIMITS.idMax + 1))],
      ['an id of idMax + 2 code units in surrogate pairs', JSON.stringify('😀'.repeat(DOCUMENT_LIMITS.idMax / 2 + 1))],
      ['an id with an escaped NUL', '"a\\u0000"'],
      ['an id with a raw NUL', '"a\u0000"'],
      ['an id with a raw control byte', '"a\x01"'],
      ['an id with a raw tab', '"a\tb"'],
      ['a number id', '12'],
      ['a null id', 'null'],
    ])('%s', (_, idJson) => {
      expectRefused(form(idJson, TIME, TIME, '{}'));
      expectRefused(form(idJson, TIME, TIME, '{}'), MOVED);
    });

    it.each([
      ['an id of idMax characters', JSON.stringify('x'.repeat(DOCUMENT_LIMITS.idMax))],
      ['an id of idMax non-ASCII characters', JSON.stringify('é'.repeat(DOCUMENT_LIMITS.idMax))],
      ['an id of idMax code units in surrogate pairs', JSON.stringify('😀'.repeat(DOCUMENT_LIMITS.idMax / 2))],
      ['an id with an escaped backslash before u0000', '"a\\\\u0000"'],
      ['an id with escapes', JSON.stringify('a"b\\c\x01\x02\n')],
      ['an id of one character', '"x"'],
    ])('but not %s', (_, idJson) => {
      const line = form(idJson, TIME, TIME, '{}');
      // Only a plain id of at most idMax bytes in the dump's form makes a row.
      expect(dumpFields(line) !== undefined).toBe(name === 'dump' && plainId(JSON.parse(idJson)));
      expectAccepted(line);
    });

    it.each(['[]', '[{}]', 'null', '"x"', '1', 'true'])('a doc that is not an object: %s', (docJson) => {
      expectRefused(form('"a"', TIME, TIME, docJson));
    });

    it.each(['yesterday', '', `${TIME} `, ` ${TIME}`, `${TIME}Z`])('a time that is no instant: %j', (time) => {
      expectRefused(form('"a"', time, TIME, '{}'));
      expectRefused(form('"a"', TIME, time, '{}'));
    });
  });

  it.each([
    ['a truncated line', `${dumpLine('"a"', TIME, TIME, '{"a":1}').slice(0, -1)}`],
    ['a doc without its closing brace', `${dumpLine('"a"', TIME, TIME, '{"a":1}').slice(0, -2)}}`],
    ['a line closed by a space, not a brace', `${dumpLine('"a"', TIME, TIME, '{"a":1}').slice(0, -1)} `],
    ['a line closed by a bracket, not a brace', `${dumpLine('"a"', TIME, TIME, '{"a":1}').slice(0, -1)}]`],
    ['a line closed by a letter, not a brace', `${dumpLine('"a"', TIME, TIME, '{}').slice(0, -1)}x`],
    ['a doc with a missing value', spacedLine('"a"', TIME, TIME, '{"a":}')],
    ['a trailing comma', spacedLine('"a"', TIME, TIME, '{"a":1,}')],
    ['text after the object', `${spacedLine('"a"', TIME, TIME, '{}')} x`],
    ['two objects', `${dumpLine('"a"', TIME, TIME, '{}')}{}`],
    ['a line that is an array', `[${dumpLine('"a"', TIME, TIME, '{}')}]`],
    ['whitespace only', '   '],
    ['a carriage return only', '\r'],
    ['a missing doc', `{"id":"a","createTime":"${TIME}","updateTime":"${TIME}"}`],
    ['a missing time', `{"id":"a","createTime":"${TIME}","doc":{}}`],
    ['a time that is a number', `{"id":"a","createTime":1706688000000,"updateTime":"${TIME}","doc":{}}`],
    ['an escaped NUL in the doc', spacedLine('"a"', TIME, TIME, '{"s":"x\\u0000"}')],
    ['an escaped NUL in a key of the doc', spacedLine('"a"', TIME, TIME, '{"\\u0000":1}')],
    ['an escaped NUL after escaped backslashes', spacedLine('"a"', TIME, TIME, '{"s":"\\\\\\u0000"}')],
    [
      'an escaped NUL in a reordered line',
      `{"doc":{"s":"\\u0000"},"id":"a","createTime":"${TIME}","updateTime":"${TIME}"}`,
    ],
    ['invalid JSON in another form', spacedLine('"a"', TIME, TIME, '{"a":tru}')],
    ['a raw control byte in a doc string', dumpLine('"a"', TIME, TIME, '{"s":"x\x01"}')],
    ['a raw tab in a doc string', dumpLine('"a"', TIME, TIME, '{"s":"x\ty"}')],
    ['a raw \\x02 in a doc string', dumpLine('"a"', TIME, TIME, '{"s":"x\x02y"}')],
    ['a raw carriage return in a doc string', dumpLine('"a"', TIME, TIME, '{"s":"x\ry"}')],
    ['a raw NUL in a doc string', dumpLine('"a"', TIME, TIME, '{"s":"x\x00y"}')],
    ['a raw \\x01 between doc values', dumpLine('"a"', TIME, TIME, '{"s":\x011}')],
    ['a raw \\x02 between doc values', dumpLine('"a"', TIME, TIME, '{"s":1\x02}')],
    ['a raw control byte in another form', spacedLine('"a"', TIME, TIME, '{"s":"x\x01"}')],
  ])('%s', (_, bad) => {
    expectRefused(bad);
    expectRefused(bad, MOVED);
  });

  it('decides alike in both forms on 32 containers whose innermost holds a value: taken', () => {
    // The API's checkShape (document.service.ts), the fast path and depthOf all count containers only.
    for (const kind of ['objects', 'arrays', 'mixed'] as const) {
      const docJson = deepDoc(DOCUMENT_LIMITS.depth, kind, true);
      expect(parseDocumentLine(spacedLine('"a"', TIME, TIME, docJson))).toBeDefined();
      expect(copy(run(dumpLine('"a"', TIME, TIME, docJson)), 1).count).toBe(1);
      expect(copy(run(spacedLine('"a"', TIME, TIME, docJson)), 1).others).toHaveLength(1);
    }
  });

  it('takes an escaped backslash before u0000 in the doc (not a NUL) in both forms', () => {
    expectAccepted(dumpLine('"a"', TIME, TIME, '{"s":"\\\\u0000"}'));
    expectAccepted(spacedLine('"a"', TIME, TIME, '{"s":"\\\\u0000"}'));
  });

  it('hands a dump-form doc PostgreSQL must refuse (invalid JSON, an escaped NUL) to it byte for byte', () => {
    // Left to PostgreSQL by design (class 22 errors, mapped back by refusedRow and lineOf); passed
    // through unchanged so that PostgreSQL sees exactly what the line holds.
    for (const docJson of ['{"a":tru}', '{"a":1 2}', '{"a":[}]', '{]', '{"s":"x\\u0000"}']) {
      const line = dumpLine('"a"', TIME, TIME, docJson);
      expect(parseDocumentLine(line)).toBeUndefined();
      const got = outcome(copy(run(line), 1));
      expect(got.rows.map((row) => row.doc)).toEqual([docJson]);
      expect(got.others).toEqual([]);
      // Under a retarget, it is parsed here.
      expectBadDocument(run(line), 1, 1, MOVED);
    }
  });
});

describe('copyRows: times', () => {
  // Times in the dump's 24-byte shape that JavaScript refuses too: verification refuses the line.
  it.each([
    '2024-01-01T00:00:60.000Z',
    '2024-12-31T23:59:60.000Z',
    '2024-13-01T00:00:00.000Z',
    '2024-00-01T00:00:00.000Z',
    '2024-01-00T00:00:00.000Z',
    '2024-01-32T00:00:00.000Z',
    '2024-01-01T25:00:00.000Z',
    '2024-01-01T00:60:00.000Z',
  ])('a dump-form time of the right shape that is no instant is refused (never a row): %s', (time) => {
    for (const line of [dumpLine('"a"', time, TIME, '{}'), dumpLine('"a"', TIME, time, '{}')]) {
      expect(parseDocumentLine(line)).toBeUndefined();
      expectBadDocument(Buffer.from(`${dumpLine('"ok"', TIME, TIME, '{}')}\n${line}\n`), 7, 8);
    }
  });

  it.each(['2024-01-01T00:00:60.000Z', '2024-13-01T00:00:00.000Z'])('the same time in another form: %s', (time) => {
    expectBadDocument(run(spacedLine('"a"', time, TIME, '{}')), 3, 3);
    expectBadDocument(run(spacedLine('"a"', TIME, time, '{}')), 3, 3);
  });

  // JavaScript reads these, rolled over (Feb 30 as Mar 1, hour 24 as the next day); PostgreSQL reads
  // them otherwise or not at all. Never a row: whole among the others, for the database to parse.
  it.each(ODD_TIMES)('a dump-form time JavaScript rolls over is handed on whole: %s', (time) => {
    for (const line of [dumpLine('"a"', time, TIME, '{}'), dumpLine('"a"', TIME, time, '{}')]) {
      expect(parseDocumentLine(line)).toBeDefined();
      const got = outcome(copy(run('', '', line), 10));
      expect(got.rows).toEqual([]);
      expect(got.others).toEqual([line]);
      expect(got.otherLines).toEqual([12]);
    }
  });

  it.each([
    '2024-02-29T00:00:00.000Z',
    '2000-02-29T23:59:59.999Z',
    '2023-12-31T23:59:59.999Z',
    '2023-04-30T00:00:00.000Z',
    '0001-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
  ])('a real instant at an edge is a row: %s', (time) => {
    const { rows } = outcome(copy(run(dumpLine('"a"', time, LATER, '{}'), dumpLine('"b"', TIME, time, '{}')), 1));
    expect(rows.map((row) => [row.id, row.createTime, row.updateTime])).toEqual([
      ['a', time, LATER],
      ['b', TIME, time],
    ]);
  });

  it('agrees with JavaScript on which times of the dump shape are real instants', () => {
    // Every day of the month 0 to 32, months 0 to 13, over leap and common years (and their centuries).
    fc.assert(
      fc.property(
        fc.constantFrom(1, 4, 1900, 2000, 2023, 2024, 2100, 9996),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.constantFrom('00:00:00.000', '23:59:59.999', '24:00:00.000', '12:60:00.000', '12:00:60.000'),
        (year, month, day, clock) => {
          const pad = (value: number, digits: number) => String(value).padStart(digits, '0');
          const time = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${clock}Z`;
          const line = dumpLine('"a"', time, TIME, '{}');
          const real = realTime(time);
          let copied: CopyRun;
          try {
            copied = copy(run(line), 1);
          } catch (error) {
            expect(error).toBeInstanceOf(ArchiveProblem);
            expect(parseDocumentLine(line)).toBeUndefined();
            expect(real).toBe(false);
            return;
          }
          expect(copied.count).toBe(real ? 1 : 0);
          expect(copied.others).toEqual(real ? [] : [line]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** As verification finds a NUL: `\u0000` not itself escaped (backup-archive.ts). */
const ESCAPED_NUL = /(?:^|[^\\])(?:\\\\)*\\u0000/;
describe('copyRows: bytes valid JSON never holds raw never reach the rows raw', () => {
  /** Bytes inserted into valid dump-form lines (no newline: it would make two lines). */
  const inserted = fc.constantFrom(
    '\x01',
    '\x02',
    '\r',
    '\t',
    ' ',
    '"',
    '\\',
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '\x7f',
    'é',
    '\x00',
    '\x0b',
    '\x1f',
    '0',
    'Z',
    // A backslash then a byte JSON never holds raw: inside a string, an "escape" of it.
    '\\\x00',
    '\\\x01',
    '\\\x02',
    '\\\r',
    '\\\t',
  );

  it('refuses a mutated line (bytes inserted or replaced) at its number, hands it on whole, or writes it as verification reads it', () => {
    fc.assert(
      fc.property(
        entryArb,
        fc.array(fc.tuple(fc.nat(), inserted, fc.boolean()), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 1000 }),
        (entry, mutations, firstLine) => {
          const to = target();
          let { line } = buildLine('dump', entry.id, entry.created, entry.updated, docOf(entry, to.retarget), 0, TIME);
          // Bytes inserted, or put in place of one (the last, often: where the line and its doc close).
          for (const [position, byte, replace] of mutations) {
            const at = replace && position % 3 === 0 ? line.length - 1 : position % (line.length + 1);
            line = `${line.slice(0, at)}${byte}${line.slice(replace ? at + 1 : at)}`;
          }
          // As the bytes read back (an insertion inside a surrogate pair leaves a U+FFFD).
          line = Buffer.from(line).toString('utf8');
          const bytes = Buffer.from(`\n${line}\n`);
          const want = parseDocumentLine(line);
          let copied: CopyRun;
          try {
            copied = copy(bytes, firstLine, to);
          } catch (error) {
            expect(want).toBeUndefined();
            expect(error).toBeInstanceOf(ArchiveProblem);
            if (error instanceof ArchiveProblem) {
              expect(error.problem).toBe('badDocument');
              expect(error.params).toEqual({ module: to.module, line: firstLine + 1 });
            }
            return;
          }
          const { rows, others, otherLines } = outcome(copied);
          expect(rows.length + others.length).toBe(1);
          if (others.length === 1) {
            // Whole, unchanged, at its line; verification takes it; and not a line that had to be a row.
            expect(others).toEqual([line]);
            expect(otherLines).toEqual([firstLine + 1]);
            expect(want).toBeDefined();
            expect(mustBeRow(line)).toBe(false);
            return;
          }
          const [row] = rows;
          if (!row) return;
          // A row only from a line in the dump's form, its fields exactly the line's.
          const fields = dumpFields(line);
          expect(fields).toBeDefined();
          if (!fields) return;
          expect(copied.lineOf(1)).toBe(firstLine + 1);
          expect([row.id, row.doc, row.createTime, row.updateTime]).toEqual([
            fields.id,
            fields.docJson,
            fields.created,
            fields.updated,
          ]);
          // No raw control byte in the doc's strings (after a backslash neither), none outside them but a tab.
          expect(rawControls(row.doc)).toEqual([]);
          if (want) {
            expectRowOf(row, line, to, fields);
          } else {
            // A line the fast path took though verification refuses it: only for what PostgreSQL
            // refuses as it loads the doc (its JSON syntax, an escaped NUL).
            expect(!parsesAsJson(row.doc) || ESCAPED_NUL.test(row.doc)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([
    ['0x01', 'x\x01y'],
    ['0x02', 'x\x02y'],
    ['CR', 'x\ry'],
    ['tab', 'x\ty'],
  ])('a raw %s in a dump-form id or doc string is refused', (_, raw) => {
    expectBadDocument(run(dumpLine(`"${raw}"`, TIME, TIME, '{}')), 9, 9);
    expectBadDocument(run(dumpLine('"a"', TIME, TIME, `{"s":"${raw}"}`)), 9, 9);
    expectBadDocument(run(dumpLine('"a"', TIME, TIME, `{"${raw}":1}`)), 9, 9);
  });

  it.each([
    ['NUL', '\\\x00'],
    ['0x01', '\\\x01'],
    ['0x02', '\\\x02'],
    ['0x02 twice', '\\\x02\\\x02'],
    ['CR', '\\\r'],
    ['tab', '\\\t'],
    ['0x1f', '\\\x1f'],
    ['0x01 after an escaped backslash', '\\\\\\\x01'],
    ['0x01 after an escaped quote', '\\"\\\x01'],
  ])('a raw %s after a backslash in a dump-form doc string or key is refused, never a row', (_, raw) => {
    // As if escaped: JSON has no such escape (verification refuses the line), and the byte would
    // reach the COPY raw.
    const good = dumpLine('"ok"', TIME, TIME, '{}');
    for (const docJson of [`{"s":"x${raw}y"}`, `{"k${raw}":1}`, `{"a":[1,{"s":"${raw}"}]}`]) {
      const line = dumpLine('"a"', TIME, TIME, docJson);
      expect(parseDocumentLine(line)).toBeUndefined();
      expectBadDocument(Buffer.from(`${good}\n\n${line}\n${good}\n`), 9, 11);
    }
  });
});

describe('copyRows: line length', () => {
  const max = BACKUP_LIMITS.lineBytesMax;
  /** A line of exactly `bytes` bytes, its doc one long string. */
  function longLine(bytes: number, form: typeof dumpLine): { line: string; docJson: string } {
    const base = Buffer.byteLength(form('"big"', TIME, TIME, '{"s":""}'));
    const docJson = `{"s":"${'x'.repeat(bytes - base)}"}`;
    return { line: form('"big"', TIME, TIME, docJson), docJson };
  }

  it('takes a line of lineBytesMax bytes in the dump form, as a row', () => {
    const { line, docJson } = longLine(max, dumpLine);
    expect(Buffer.byteLength(line)).toBe(max);
    const { rows, others } = outcome(copy(run(line), 1));
    expect(others).toEqual([]);
    expect(rows.map((row) => row.doc)).toEqual([docJson]);
  });

  it('takes a line of lineBytesMax bytes in another form, whole', () => {
    const { line } = longLine(max, spacedLine);
    expect(Buffer.byteLength(line)).toBe(max);
    const { rows, others, otherLines } = outcome(copy(run('', line), 1));
    expect(rows).toEqual([]);
    expect(others).toEqual([line]);
    expect(otherLines).toEqual([2]);
  });

  it.each(Object.entries(FORMS))('refuses a line of lineBytesMax + 1 bytes in the %s form', (_, form) => {
    const { line } = longLine(max + 1, form);
    expect(Buffer.byteLength(line)).toBe(max + 1);
    const good = dumpLine('"a"', TIME, TIME, '{}');
    expectBadDocument(Buffer.from(`${good}\n\n${line}\n`), 70, 72);
    expectBadDocument(Buffer.from(`${good}\n\n${line}`), 70, 72, MOVED);
  });
});

describe('refusedRow and lineOf', () => {
  const copyError = (row: number) =>
    Object.assign(new Error('invalid input syntax for type json'), {
      where: `COPY restore_load_0123, line ${row}, column doc: "{"line 9": 1}"`,
    });

  it('reads the row PostgreSQL names in its where, else the first', () => {
    expect(refusedRow(copyError(3))).toBe(3);
    expect(refusedRow(copyError(1234))).toBe(1234);
    expect(refusedRow(new Error('no where'))).toBe(1);
    expect(refusedRow(Object.assign(new Error('x'), { where: 'COPY t, column doc' }))).toBe(1);
    expect(refusedRow('not an error')).toBe(1);
  });

  it("reads the COPY's own line, not the line of a JSON error's context before it", () => {
    const jsonError = (row: number) =>
      Object.assign(new Error('invalid input syntax for type json'), {
        where: `JSON data, line 1: {"a":tru...\nCOPY restore_load_0123, line ${row}, column doc: "{"a":tru}"`,
      });
    expect(refusedRow(jsonError(12))).toBe(12);
    expect(refusedRow(jsonError(1))).toBe(1);
    expect(refusedRow(Object.assign(new Error('x'), { where: 'JSON data, line 7: {"a":tru...' }))).toBe(1);
    const line = dumpLine('"a"', TIME, TIME, '{}');
    const copied = copy(run(line, spacedLine('"b"', TIME, TIME, '{}'), line, line), 30);
    expect(copied.lineOf(refusedRow(jsonError(2)))).toBe(32);
  });

  it('maps the n-th row sent back to its line, empty lines and lines in other forms counted', () => {
    const line = dumpLine('"a"', TIME, TIME, '{}');
    const other = spacedLine('"o"', TIME, TIME, '{}');
    const copied = copy(Buffer.from(`\n\n${line}\n${other}\n${line}\n\n${other}\n${line}\n\n${line}`), 10);
    expect(copied.count).toBe(4);
    expect(copied.otherLines).toEqual([13, 16]);
    expect([1, 2, 3, 4].map((row) => copied.lineOf(row))).toEqual([12, 14, 17, 19]);
    // An error without a where: the first row, the first line that was sent.
    expect(copied.lineOf(refusedRow(new Error('no where')))).toBe(12);
    expect(copied.lineOf(refusedRow(copyError(3)))).toBe(17);
    const leading = copy(Buffer.from(`${other}\n${other}\n${line}\n${line}\n`), 7);
    expect(leading.lineOf(refusedRow(new Error('no where')))).toBe(9);
    expect(leading.lineOf(refusedRow(copyError(2)))).toBe(10);
    const plain = copy(Buffer.from(`${line}\n\n${line}\n`), 7);
    expect(plain.lineOf(refusedRow(new Error('no where')))).toBe(7);
    expect(plain.lineOf(refusedRow(copyError(2)))).toBe(9);
  });

  it('agrees with copyRows on which line each row and each other line came from', () => {
    type Kind = 'dump' | 'spaced' | 'crlf' | 'oddTime';
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            blanks: fc.integer({ min: 0, max: 3 }),
            kind: fc.constantFrom<Kind>('dump', 'dump', 'spaced', 'crlf', 'oddTime'),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 10_000 }),
        (items, blanksAfter, firstLine) => {
          let text = '';
          let line = firstLine;
          const rowLines: { id: string; line: number }[] = [];
          const others: string[] = [];
          const otherLines: number[] = [];
          items.forEach(({ blanks, kind }, index) => {
            text += '\n'.repeat(blanks);
            line += blanks;
            const id = `"doc-${index}"`;
            const written =
              kind === 'dump'
                ? dumpLine(id, TIME, TIME, '{}')
                : kind === 'spaced'
                  ? spacedLine(id, TIME, TIME, '{}')
                  : kind === 'crlf'
                    ? `${dumpLine(id, TIME, TIME, '{}')}\r`
                    : dumpLine(id, '2023-02-29T00:00:00.000Z', TIME, '{}');
            if (kind === 'dump') rowLines.push({ id: `doc-${index}`, line });
            else {
              others.push(written);
              otherLines.push(line);
            }
            text += `${written}\n`;
            line++;
          });
          text += '\n'.repeat(blanksAfter);
          const copied = copy(Buffer.from(text), firstLine);
          const got = outcome(copied);
          expect(got.rows.map((row) => row.id)).toEqual(rowLines.map((row) => row.id));
          expect(got.others).toEqual(others);
          expect(got.otherLines).toEqual(otherLines);
          rowLines.forEach((row, index) => {
            expect(copied.lineOf(refusedRow(copyError(index + 1)))).toBe(row.line);
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('RowBuffers', () => {
  it('reuses a given buffer, its old bytes never showing in the rows', () => {
    const buffers = new RowBuffers(2);
    const stale = Buffer.alloc(64 * 1024, '\x01\x02\n');
    buffers.give(stale);
    const spaced = spacedLine('"b"', TIME, TIME, '{"s":2}');
    const copied = copyRows(
      run(dumpLine('"a"', TIME, TIME, '{"s":1}'), '', spaced, dumpLine('"c"', TIME, TIME, '{"s":3}')),
      1,
      target(),
      buffers,
    );
    expect(copied.buffer).toBe(stale);
    const got = outcome(copied);
    expect(got.rows.map((row) => [row.id, row.doc])).toEqual([
      ['a', '{"s":1}'],
      ['c', '{"s":3}'],
    ]);
    expect(got.others).toEqual([spaced]);
    expect(got.otherLines).toEqual([3]);
  });

  it('takes a large enough buffer, and keeps at most `keep`', () => {
    const buffers = new RowBuffers(1);
    const small = Buffer.alloc(16);
    const tiny = Buffer.alloc(8);
    buffers.give(small);
    buffers.give(tiny);
    const copied = copyRows(run(dumpLine('"a"', TIME, TIME, '{}')), 1, target(), buffers);
    expect(copied.buffer).not.toBe(small);
    expect(decodeRows(copied.rows).map((row) => row.id)).toEqual(['a']);
    expect(buffers.take(1)).toBe(small);
    expect(buffers.take(1)).not.toBe(tiny);
  });
});

describe('copyRows: text that is not UTF-8', () => {
  // Verification reads a line as UTF-8, a byte that is none as U+FFFD, and takes it; the route that
  // does not COPY loads the same text. A row sends the raw byte to COPY, which PostgreSQL refuses
  // (invalid byte sequence for encoding "UTF8", class 22: badDocument at the line).
  it('sends no byte that is not UTF-8 to COPY in a line verification accepts', () => {
    const bad = Buffer.from([0xff]);
    for (const [before, after] of [
      ['{"id":"a', `","createTime":"${TIME}","updateTime":"${TIME}","doc":{}}\n`],
      [`{"id":"a","createTime":"${TIME}","updateTime":"${TIME}","doc":{"s":"`, '"}}\n'],
    ]) {
      const bytes = Buffer.concat([Buffer.from(before ?? ''), bad, Buffer.from(after ?? '')]);
      expect(parseDocumentLine(bytes.toString('utf8', 0, bytes.length - 1))).toBeDefined();
      const copied = copy(bytes, 1);
      expect(copied.count + copied.others.length).toBe(1);
      // A row's texts are UTF-8 (decodeRows checks each); a line handed on goes as text.
      expect(decodeRows(copied.rows)).toHaveLength(copied.count);
      expect(copied.others.every((line) => isUtf8(Buffer.from(line)))).toBe(true);
    }
  });
});

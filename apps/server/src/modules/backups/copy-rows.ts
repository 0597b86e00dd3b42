import { isUtf8 } from 'node:buffer';
import { BACKUP_LIMITS, DOCUMENT_LIMITS } from '@gantry/shared';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import { parseDocumentLine } from './backup-archive.js';

/**
 * Rows for PostgreSQL's `COPY … (FORMAT binary)`: each field's length, then its bytes (the JSON as the
 * line holds it, after jsonb's version byte; the times as microseconds since 2000). PostgreSQL reads
 * no delimiter, quote or time text: the backend's share of a load measured a third less than CSV.
 * The columns, in order.
 */
export const COPY_COLUMNS = '(project_id, collection, id, doc, create_time, update_time)';
export const COPY_OPTIONS = '(format binary)';

const MIB = 1024 * 1024;
const NEWLINE = 0x0a;
const FIELDS = COPY_COLUMNS.split(',').length;
/** The binary COPY's signature, flags and header extension length; the trailer (a field count of -1). */
const COPY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const COPY_TRAILER = Buffer.from([0xff, 0xff]);
/** jsonb's binary input: a version byte, then the JSON text. */
const JSONB_VERSION = 1;
/** Days from 1970-01-01 to PostgreSQL's epoch, 2000-01-01. */
const PG_EPOCH_DAYS = 10_957;
const TWO_32 = 2 ** 32;

const ascii = (text: string) => Buffer.from(text, 'latin1');
/** A line as our dumps write it (backup.repository.ts DOCUMENT_LINE), piece by piece. */
const ID_OPEN = ascii('{"id":"');
const CREATE_OPEN = ascii('","createTime":"');
const UPDATE_OPEN = ascii('","updateTime":"');
const DOC_OPEN = ascii('","doc":');
/** `toISOString()`'s form: 2024-01-31T08:00:00.000Z. */
const TIME_BYTES = 24;
const TIME_SHAPE = ascii('0000-00-00T00:00:00.000Z');

function startsWith(bytes: Buffer, at: number, piece: Buffer): boolean {
  if (at + piece.length > bytes.length) return false;
  for (let i = 0; i < piece.length; i++) if (bytes[at + i] !== piece[i]) return false;
  return true;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The decimal number written by `count` digits from `at`. */
function digitsAt(bytes: Buffer, at: number, count: number): number {
  let value = 0;
  for (let i = 0; i < count; i++) value = value * 10 + (bytes[at + i] ?? 0) - 0x30;
  return value;
}

/**
 * A time in `toISOString()`'s form naming a real instant (month, day, hour, minute and second in
 * range): one JavaScript and PostgreSQL read alike. Anything else is read by `parseDocumentLine`.
 */
function isTime(bytes: Buffer, at: number): boolean {
  for (let i = 0; i < TIME_BYTES; i++) {
    const shape = TIME_SHAPE[i];
    const byte = bytes[at + i] ?? 0;
    if (shape === 0x30 ? byte < 0x30 || byte > 0x39 : byte !== shape) return false;
  }
  const number = (from: number, digits: number) => digitsAt(bytes, at + from, digits);
  const year = number(0, 4);
  const month = number(5, 2);
  const day = number(8, 2);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return year > 0 && day >= 1 && day <= days && number(11, 2) < 24 && number(14, 2) < 60 && number(17, 2) < 60;
}

/** Days since 1970-01-01 of a date of the proleptic Gregorian calendar (month 1–12). */
function daysOf(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return (
    era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468
  );
}

/**
 * Writes a time `isTime` accepted as PostgreSQL's binary timestamptz: microseconds since
 * 2000-01-01T00:00:00Z, a signed 64-bit big-endian integer.
 */
function writeTime(bytes: Buffer, at: number, into: Buffer, to: number): void {
  const number = (from: number, digits: number) => digitsAt(bytes, at + from, digits);
  const days = daysOf(number(0, 4), number(5, 2), number(8, 2)) - PG_EPOCH_DAYS;
  const seconds = days * 86_400 + number(11, 2) * 3_600 + number(14, 2) * 60 + number(17, 2);
  const micros = seconds * 1_000_000 + number(20, 3) * 1_000;
  if (Number.isSafeInteger(micros)) {
    const high = Math.floor(micros / TWO_32);
    into.writeInt32BE(high, to);
    into.writeUInt32BE(micros - high * TWO_32, to + 4);
  } else {
    // Beyond 2^53 µs (before 1715 or after 2285): exactly, as a BigInt.
    into.writeBigInt64BE(BigInt(seconds) * 1_000_000n + BigInt(number(20, 3) * 1_000), to);
  }
}

/**
 * The end of the id of a line as our dumps write it (a string without escapes, 1 to idMax bytes, no
 * control character), or -1.
 */
function idEnd(bytes: Buffer, from: number, end: number): number {
  const limit = Math.min(end, from + DOCUMENT_LIMITS.idMax + 1);
  for (let at = from; at < limit; at++) {
    const byte = bytes[at] ?? 0;
    if (byte === 0x22) return at > from ? at : -1;
    if (byte < 0x20 || byte === 0x5c) return -1;
  }
  return -1;
}

/**
 * Scans a document's JSON (an object from `from` to `end`): 'deep' when containers nest deeper than
 * the limit (the document itself is 1, as `parseDocumentLine` counts), 'other' when it is not one
 * object closed at `end` or holds a control character (the line is then parsed here), else 'ok'.
 * The JSON itself is parsed by PostgreSQL.
 */
function scanDocument(bytes: Buffer, from: number, end: number): 'ok' | 'deep' | 'other' {
  let depth = 0;
  let inString = false;
  for (let at = from; at < end; at++) {
    const byte = bytes[at] as number;
    if (inString) {
      if (byte === 0x22) inString = false;
      else if (byte === 0x5c) {
        // The escaped byte: never a raw control character either.
        if ((bytes[++at] ?? 0) < 0x20) return 'other';
      } else if (byte < 0x20) return 'other';
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > DOCUMENT_LIMITS.depth) return 'deep';
    } else if (byte === 0x7d || byte === 0x5d) {
      if (--depth === 0 && at !== end - 1) return 'other';
    } else if (byte < 0x20 && byte !== 0x09 && byte !== 0x20) {
      return 'other';
    }
  }
  return depth === 0 && !inString ? 'ok' : 'other';
}

export interface CopyTarget {
  projectId: string;
  module: string;
  /** A `projectId` field naming the source project is made the target's. */
  retarget: { from: string; to: string };
}

/** A growable byte buffer (rows are about as long as the lines they come from). */
class Rows {
  length = 0;
  constructor(public bytes: Buffer) {}
  room(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + more));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
  put(from: Buffer, start: number, end: number): void {
    this.room(end - start);
    this.length += from.copy(this.bytes, this.length, start, end);
  }
  byte(value: number): void {
    this.room(1);
    this.bytes[this.length++] = value;
  }
  int32(value: number): void {
    this.room(4);
    this.length = this.bytes.writeInt32BE(value, this.length);
  }
  /** A field's length and bytes. */
  field(from: Buffer, start: number, end: number): void {
    this.int32(end - start);
    this.put(from, start, end);
  }
  /** A timestamptz field from a time `isTime` accepted. */
  time(from: Buffer, at: number): void {
    this.int32(8);
    this.room(8);
    writeTime(from, at, this.bytes, this.length);
    this.length += 8;
  }
}

/**
 * A run's lines as our dumps write them, as COPY rows (and the line of the module file each row
 * comes from), and its lines in any other form, checked, for the database to parse whole.
 */
export interface CopyRun {
  module: string;
  rows: Buffer;
  count: number;
  /** The buffer the rows are in, for `RowBuffers.give`. */
  buffer: Buffer;
  /** The line of the module file of the n-th row (from 1). */
  lineOf(row: number): number;
  /** Lines in another form (verified here: `parseDocumentLine`), and their numbers. */
  others: string[];
  otherLines: number[];
}

/**
 * Buffers for rows, reused: a restore writes hundreds of megabytes of rows, and fresh memory for
 * each run cost more in garbage collection than making the rows. At most `keep` wait to be reused.
 */
export class RowBuffers {
  private readonly free: Buffer[] = [];
  constructor(private readonly keep: number) {}
  take(size: number): Buffer {
    const index = this.free.findIndex((buffer) => buffer.length >= size);
    // Whole MiB: runs differ in length by a few bytes, and a buffer a byte too short is no use.
    const fresh = () => Buffer.allocUnsafe(Math.ceil(size / MIB) * MIB);
    if (index === -1) return fresh();
    return this.free.splice(index, 1)[0] ?? fresh();
  }
  give(buffer: Buffer): void {
    if (this.free.length < this.keep) this.free.push(buffer);
  }
}

/**
 * A run of an archive's document lines (whole lines, each ended by a newline; the first is line
 * `firstLine` of its module file), each line checked on the way as verification checks it
 * (`parseDocumentLine`). A line as our dumps write it (its times in `toISOString()`'s form, real
 * instants; no retarget) becomes a COPY row: it is cut apart as bytes, only its document's nesting
 * and raw bytes are checked here, and its JSON is parsed by PostgreSQL as it loads it. Any other
 * line is parsed here and kept whole (`others`): the database parses it (`parsedLines`), as before
 * COPY, so its numbers keep every digit. A bad line is a `badDocument` of the module; an empty line
 * is skipped (as verification skips it). The rows are written into a buffer of `into`, given back
 * once they are sent.
 */
export function copyRows(run: Buffer, firstLine: number, target: CopyTarget, into: RowBuffers): CopyRun {
  const { module } = target;
  const fast = target.retarget.from === target.retarget.to;
  // Bytes not UTF-8 (verification reads them as U+FFFD, PostgreSQL refuses them): such a line is
  // read here. One check of the whole run, usually.
  const utf8 = isUtf8(run);
  // Each row's field count and its first two fields, the same in every row of the run.
  const project = Buffer.from(target.projectId);
  const collection = Buffer.from(module);
  const head = Buffer.alloc(2 + 4 + project.length + 4 + collection.length);
  head.writeInt16BE(FIELDS, 0);
  head.writeInt32BE(project.length, 2);
  project.copy(head, 6);
  head.writeInt32BE(collection.length, 6 + project.length);
  collection.copy(head, 10 + project.length);
  // A row is shorter than its line (at least 97 bytes) but for its head.
  const rows = new Rows(into.take(run.length + 1024 + Math.ceil(run.length / 64) * head.length));
  /** Lines that are not rows (empty, or in another form), in order: `lineOf` steps over them. */
  const skipped: number[] = [];
  const others: string[] = [];
  const otherLines: number[] = [];
  let count = 0;
  let line = firstLine;
  for (let start = 0; start < run.length; line++) {
    let end = run.indexOf(NEWLINE, start);
    if (end === -1) end = run.length;
    const next = end + 1;
    if (end === start) {
      skipped.push(line);
      start = next;
      continue;
    }
    if (end - start > BACKUP_LIMITS.lineBytesMax) throw new ArchiveProblem('badDocument', { module, line });
    const id = start + ID_OPEN.length;
    const idClose =
      fast && startsWith(run, start, ID_OPEN) && (utf8 || isUtf8(run.subarray(start, end))) ? idEnd(run, id, end) : -1;
    const created = idClose + CREATE_OPEN.length;
    const updated = created + TIME_BYTES + UPDATE_OPEN.length;
    const doc = updated + TIME_BYTES + DOC_OPEN.length;
    if (
      idClose !== -1 &&
      startsWith(run, idClose, CREATE_OPEN) &&
      isTime(run, created) &&
      startsWith(run, created + TIME_BYTES, UPDATE_OPEN) &&
      isTime(run, updated) &&
      startsWith(run, updated + TIME_BYTES, DOC_OPEN) &&
      run[doc] === 0x7b &&
      run[end - 1] === 0x7d
    ) {
      const scanned = scanDocument(run, doc, end - 1);
      if (scanned === 'deep') throw new ArchiveProblem('badDocument', { module, line });
      if (scanned === 'ok') {
        // The COPY's header before its first row: a run without rows is not sent at all.
        if (count++ === 0) rows.put(COPY_HEADER, 0, COPY_HEADER.length);
        rows.put(head, 0, head.length);
        rows.field(run, id, idClose);
        rows.int32(1 + (end - 1 - doc));
        rows.byte(JSONB_VERSION);
        rows.put(run, doc, end - 1);
        rows.time(run, created);
        rows.time(run, updated);
        start = next;
        continue;
      }
    }
    const text = run.toString('utf8', start, end);
    if (!parseDocumentLine(text)) throw new ArchiveProblem('badDocument', { module, line });
    others.push(text);
    otherLines.push(line);
    skipped.push(line);
    start = next;
  }
  if (count > 0) rows.put(COPY_TRAILER, 0, COPY_TRAILER.length);
  return {
    module,
    rows: rows.bytes.subarray(0, rows.length),
    count,
    buffer: rows.bytes,
    lineOf: (row) => {
      let line = firstLine + row - 1;
      for (const other of skipped) if (other <= line) line++;
      return line;
    },
    others,
    otherLines,
  };
}

/** Where PostgreSQL refused a row in a COPY (its error's `where`: "…COPY t, line 12, column doc: …"): the 12th row. */
export function refusedRow(error: unknown): number {
  const where = error instanceof Error && 'where' in error && typeof error.where === 'string' ? error.where : '';
  // Not the first "line" of it: a JSON error's own context comes first ("JSON data, line 1: …").
  return Number(/\bCOPY [^,\n]*, line (\d+)/.exec(where)?.[1] ?? 1);
}

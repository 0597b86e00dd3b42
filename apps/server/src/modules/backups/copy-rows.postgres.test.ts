/**
 * copyRows' binary rows loaded by a real PostgreSQL's COPY (GANTRY_TEST_DATABASE_URL; collected only
 * by the `server-postgres` project): every field reads back as the line holds it, the times to the
 * millisecond across the years PostgreSQL and JavaScript share (those past 2^53 microseconds from
 * 2000 included), the doc as PostgreSQL parses the line's JSON.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CopyIn, queryRows } from '../../db/database.js';
import { scratchDatabase } from '../../test/scratch-postgres.js';
import { COPY_COLUMNS, COPY_OPTIONS, type CopyTarget, copyRows, RowBuffers } from './copy-rows.js';

const { database } = scratchDatabase('gantry_copy_rows');
let copyIn: CopyIn;
beforeAll(() => {
  copyIn = database().copyIn as CopyIn;
});
beforeEach(async () => {
  await database().db.execute(sql`drop table if exists loaded`);
  await database().db.execute(sql`create table loaded (project_id text not null, collection text not null,
    id text not null, doc jsonb not null, create_time timestamp(3) with time zone not null,
    update_time timestamp(3) with time zone not null)`);
});

const TARGET: CopyTarget = { projectId: 'p-1 é', module: 'data_record', retarget: { from: 'x', to: 'x' } };

interface Line {
  id: string;
  createTime: string;
  updateTime: string;
  doc: string;
}

const lineOf = (line: Line) =>
  `{"id":"${line.id}","createTime":"${line.createTime}","updateTime":"${line.updateTime}","doc":${line.doc}}`;

/** Loads the lines through copyRows and one binary COPY; answers what PostgreSQL holds, in order. */
async function load(lines: Line[]) {
  const copied = copyRows(Buffer.from(lines.map((line) => `${lineOf(line)}\n`).join('')), 1, TARGET, new RowBuffers(0));
  expect(copied.others).toEqual([]);
  expect(await copyIn(`copy loaded ${COPY_COLUMNS} from stdin ${COPY_OPTIONS}`, copied.rows)).toBe(lines.length);
  return queryRows<{
    project_id: string;
    collection: string;
    id: string;
    doc: string;
    created: string;
    updated: string;
  }>(
    database().db,
    sql`select project_id, collection, id, doc::text as doc,
          to_char(create_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created,
          to_char(update_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated
        from loaded order by ctid`,
  );
}

/** PostgreSQL's own reading of a doc's JSON. */
async function parsed(doc: string): Promise<string> {
  const [row] = await queryRows<{ doc: string }>(database().db, sql`select ${doc}::jsonb::text as doc`);
  return row?.doc ?? '';
}

const instant = fc
  .integer({ min: new Date('0001-01-01T00:00:00.000Z').getTime(), max: new Date('9999-12-31T23:59:59.999Z').getTime() })
  .map((ms) => new Date(ms).toISOString());

describe('copyRows into a binary COPY on PostgreSQL', () => {
  it('loads every field as the line holds it, the edges of the calendar included', async () => {
    const times = [
      '0001-01-01T00:00:00.000Z',
      '1000-02-28T12:00:00.000Z',
      '1900-03-01T00:00:00.000Z',
      '1600-02-29T23:59:59.999Z',
      '1714-12-31T23:59:59.999Z',
      '1715-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '1999-12-31T23:59:59.999Z',
      '2000-01-01T00:00:00.000Z',
      '2000-01-01T00:00:00.001Z',
      '2024-02-29T08:30:15.123Z',
      '2285-06-01T00:00:00.000Z',
      '2286-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ];
    const lines = times.map((time, index) => ({
      id: `id-${index} é`,
      createTime: time,
      updateTime: times[times.length - 1 - index] ?? time,
      doc: `{"n": ${index}, "s": "x\\"y", "a": [1.5, true, null], "o": {"k": "é"}}`,
    }));
    const rows = await load(lines);
    expect(rows).toHaveLength(lines.length);
    for (const [index, line] of lines.entries()) {
      expect(rows[index]).toEqual({
        project_id: TARGET.projectId,
        collection: TARGET.module,
        id: line.id,
        doc: await parsed(line.doc),
        created: line.createTime,
        updated: line.updateTime,
      });
    }
  });

  it('reads any instant of years 1 to 9999 back to the millisecond', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(instant, instant), { minLength: 1, maxLength: 50 }), async (pairs) => {
        await database().db.execute(sql`truncate loaded`);
        const lines = pairs.map(([createTime, updateTime], index) => ({
          id: `i${index}`,
          createTime,
          updateTime,
          doc: '{}',
        }));
        const rows = await load(lines);
        expect(rows.map((row) => [row.created, row.updated])).toEqual(pairs);
      }),
      { numRuns: 40 },
    );
  });
});

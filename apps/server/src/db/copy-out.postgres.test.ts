/**
 * `copyOut` (backups read each data module in one COPY on PostgreSQL) on a real PostgreSQL
 * (GANTRY_TEST_DATABASE_URL; collected only by the `server-postgres` project).
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase } from '../test/scratch-postgres.js';
import type { CopyOut } from './database.js';

const { scratch, database } = scratchDatabase('gantry_copy');
let copyOut: CopyOut;
beforeAll(() => {
  copyOut = database().copyOut as CopyOut;
});

const ROWS = `COPY (SELECT g FROM generate_series(1, 200000) g) TO STDOUT`;

function lines(chunks: Buffer[]): number {
  return Buffer.concat(chunks).toString('latin1').split('\n').length - 1;
}

/** Both background connections answer (neither is left inside a COPY). */
async function backgroundAnswers(): Promise<void> {
  const answers = await Promise.all(
    [1, 2].map(() => database().background.execute(sql`SELECT pg_sleep(0.05), 1 AS one`)),
  );
  expect(answers.map((answer) => (answer as { rows: Array<{ one: number }> }).rows[0]?.one)).toEqual([1, 1]);
}

async function copiesRunning(): Promise<number> {
  const result = await scratch.admin((client) =>
    client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'COPY (SELECT g%' AND state <> 'idle'`,
      [scratch.name],
    ),
  );
  return result.rows[0]?.n ?? -1;
}

describe('copyOut on PostgreSQL', () => {
  it('streams the whole output of a COPY', async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of copyOut(ROWS)) chunks.push(chunk);
    expect(lines(chunks)).toBe(200_000);
    expect(Buffer.concat(chunks).subarray(0, 4).toString()).toBe('1\n2\n');
    await backgroundAnswers();
  });

  it('left early, closes its connection instead of giving it back mid-COPY', async () => {
    for await (const chunk of copyOut(ROWS)) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    await backgroundAnswers();
    await expect.poll(copiesRunning, { timeout: 5_000 }).toBe(0);
  });

  it("fails with the database's error, and the pool still serves", async () => {
    const reading = (async () => {
      for await (const _chunk of copyOut('COPY (SELECT 1 / (g - 3) FROM generate_series(1, 5) g) TO STDOUT')) {
        // Rows before the failing one may arrive first.
      }
    })();
    await expect(reading).rejects.toThrow(/division by zero/);
    await backgroundAnswers();
  });
});

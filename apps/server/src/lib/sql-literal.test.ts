import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../db/database.js';
import { createTestApp } from '../test/test-app.js';
import { sqlLiteral } from './sql-literal.js';

describe('sqlLiteral', () => {
  it('reads back as the same text in the database, whatever the quotes and backslashes', async () => {
    const app = await createTestApp();
    try {
      const texts = fc.sample(
        fc.string({ unit: fc.constantFrom("'", '\\', 'a', 'é', '"', ' ', '\n', '$', 'E', '€'), maxLength: 24 }),
        { numRuns: 60, seed: 7 },
      );
      for (const text of [...texts, "O'Brien", 'a\\b', "\\'", "'; drop table users; --", '']) {
        const [row] = await queryRows<{ value: string }>(
          app.database.db,
          sql.raw(`select ${sqlLiteral(text)} as value`),
        );
        expect(row?.value).toBe(text);
      }
    } finally {
      await app.close();
    }
  });
});

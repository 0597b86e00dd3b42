import { COLLECTIONS } from '@gantry/shared';
import { describe, expect, it } from 'vitest';
import { demoDocuments } from './demo.js';

describe('demo data', () => {
  it('spreads documents over the data modules, with references to real documents and time series in the last 90 days', () => {
    const now = Date.UTC(2026, 10, 22);
    const rows = demoDocuments('p1', 1_000, 7, now);
    expect(rows.length).toBeGreaterThanOrEqual(1_000);
    expect(rows.length).toBeLessThan(1_050);
    const collections = new Set(rows.map((row) => row.collection));
    for (const collection of collections) expect(COLLECTIONS).toContain(collection);
    expect(rows.filter((row) => row.collection === 'data_record').length).toBeGreaterThan(500);
    const components = new Set(rows.filter((row) => row.collection === 'component').map((row) => row.id));
    for (const dashboard of rows.filter((row) => row.collection === 'dashboard')) {
      for (const ref of (dashboard.doc as { components: string[] }).components) expect(components.has(ref)).toBe(true);
    }
    for (const row of rows) {
      expect(row.createTime.getTime()).toBeLessThanOrEqual(now);
      expect(row.createTime.getTime()).toBeGreaterThan(now - 91 * 86_400_000);
    }
    expect(new Set(rows.map((row) => `${row.collection}/${row.id}`)).size).toBe(rows.length);
  });
});

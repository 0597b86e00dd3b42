import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COLLECTIONS } from '@gantry/shared';
import { describe, expect, it } from 'vitest';
import { demoDocuments, demoFileSizes, demoTable, demoTableShare, writeDemoFiles } from './demo.js';

describe('demo data', () => {
  it('spreads documents over the data modules, with references to real documents and time series in the last 90 days', () => {
    const now = Date.UTC(2026, 10, 22);
    const rows = demoDocuments('p1', 1_000, 7, now, ['tab1', 'tab2']);
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
    // Tables are made through the table gate, not here; the records belong to the tables given.
    expect(rows.filter((row) => row.collection === 'table')).toEqual([]);
    const records = rows.filter((row) => row.collection === 'table_record');
    expect(records.length).toBeGreaterThan(100);
    for (const record of records) expect(['tab1', 'tab2']).toContain((record.doc as { table: string }).table);
    expect(demoDocuments('p1', 1_000, 7, now).filter((row) => row.collection === 'table_record')).toEqual([]);
  });

  it('makes published designer tables whose definition the designer accepts', () => {
    const table = demoTable('demo_1', 'admin');
    expect(table.published?.fields.map((field) => field.name)).toEqual(['value', 'note']);
    expect(table.draft).toEqual(table.published);
    expect(demoTableShare(20_000)).toBe(200);
    expect(demoTableShare(10)).toBe(1);
  });

  it('writes files of varied sizes into the media library, 100 a folder', async () => {
    const sizes = demoFileSizes(2_000, 3);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1024);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(sizes.filter((size) => size < 64 * 1024).length).toBeGreaterThan(sizes.length / 2);
    const dir = await mkdtemp(path.join(tmpdir(), 'gantry-demo-'));
    try {
      const bytes = await writeDemoFiles(dir, 'p1', 150, 3);
      const library = path.join(dir, 'projects', 'p1', 'fileServer', 'demo');
      expect(await readdir(library)).toEqual(['folder-0000', 'folder-0001']);
      expect(await readdir(path.join(library, 'folder-0001'))).toHaveLength(50);
      const first = await stat(path.join(library, 'folder-0000', 'file-000000.png'));
      expect(first.size).toBe(demoFileSizes(1, 3)[0]);
      expect(bytes).toBe(demoFileSizes(150, 3).reduce((sum, size) => sum + size, 0));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

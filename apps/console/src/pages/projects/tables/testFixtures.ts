import type { TableDefinition } from '@gantry/shared';

/** Test data for the table pages (imported by tests only): a definition with these fields and defaults otherwise. */
export const definitionOf = (fields: unknown[]) =>
  ({
    internal: true,
    uniqueTogether: [],
    rules: [],
    permissions: { view: [], add: [], manage: [] },
    list: { pageSize: 20, sortOrder: -1 },
    display: {},
    detail: {},
    fields,
  }) as unknown as TableDefinition;

import { isRecord, type MeasurePath } from '@gantry/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { projectCollectionStats, projects } from '../../db/schema.js';

/**
 * The one count of each licensed measure of a project (issue 32). The platform counts what it holds
 * itself: the project's tables, every document of its `table` collection (what the table designer
 * lists), exact in `project_collection_stats` (kept by a trigger in each writing statement's
 * transaction). Every other measure is what the project's runtime last reported
 * (`PUT project/{id}/usage`). The project detail and list, the dashboard, the licence page, the table
 * designer and the table gate (`table-gate.ts`) all read this, never a count of their own.
 */

/** The measures the platform counts itself; a runtime's report of them is not used. */
export const COUNTED_MEASURES: readonly MeasurePath[] = ['flow.tableCount'];

/** SQL: a project's table count, for an expression naming the project id. */
export function tableCountSql(projectId: SQL | AnyPgColumn): SQL<number> {
  return sql<number>`coalesce((select s.documents from ${projectCollectionStats} s
    where s.project_id = ${projectId} and s.collection = 'table'), 0)::int`;
}

/** SQL: what a `projects` row uses, as jsonb: the runtime's report with the counted tables in place. */
export function usedMeasuresSql(): SQL {
  const usage = sql`(case when jsonb_typeof(${projects.usage}) = 'object' then ${projects.usage} else '{}'::jsonb end)`;
  const flow = sql`(case when jsonb_typeof(${usage} -> 'flow') = 'object' then ${usage} -> 'flow' else '{}'::jsonb end)`;
  return sql`(${usage} || jsonb_build_object('flow', ${flow} || jsonb_build_object('tableCount', ${tableCountSql(projects.id)})))`;
}

/** `usedMeasuresSql` for a row already read: its report and its table count (`tableCountSql`). */
export function usedMeasures(usage: unknown, tables: number): Record<string, unknown> {
  const reported = isRecord(usage) ? usage : {};
  const flow = isRecord(reported.flow) ? reported.flow : {};
  return { ...reported, flow: { ...flow, tableCount: tables } };
}

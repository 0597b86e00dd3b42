import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { projects } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { tableCountSql } from './project-measures.js';

/**
 * The table gate (issue 32): the one check of a project's tables against its grant's
 * `flow.tableCount`, called in the transaction of every path that makes tables: the designer's
 * `POST …/tables` and the demo tool (room asked before), project and database restores and template
 * installs (the result checked before the commit). The generic data layer makes no table
 * (`tableUseDesigner`). Each path locks the project's row first, so they run one at a time per
 * project and a count read here stays true until the commit. No grant: no table.
 */
export async function lockTables(tx: Database, projectId: string): Promise<{ limit: number; count: number }> {
  const [row] = await tx
    .select({ grant: projects.grant, count: tableCountSql(projects.id) })
    .from(projects)
    .where(eq(projects.id, projectId))
    .for('update');
  return { limit: row?.grant?.flow?.tableCount ?? 0, count: row?.count ?? 0 };
}

/** Room for `adding` more tables, else 409 `tableLimit` (the designer's create). */
export async function admitTables(tx: Database, projectId: string, adding: number): Promise<void> {
  const { limit, count } = await lockTables(tx, projectId);
  if (count + adding > limit) throw new AppError('tableLimit', { params: { max: limit } });
}

/**
 * After a restore or an install wrote its documents, in its transaction (which locked the project
 * with `lockTables` before writing, `before` its count then): a result that adds tables past the
 * grant is refused with 409 `tablesOverGrant` and the transaction rolls back (nothing changed). One
 * that adds none passes, so a project already over a lowered grant can still restore other modules.
 */
export async function assertTablesWithinGrant(tx: Database, projectId: string, before: number): Promise<void> {
  const { limit, count } = await lockTables(tx, projectId);
  if (count > limit && count > before) throw new AppError('tablesOverGrant', { params: { count, max: limit } });
}

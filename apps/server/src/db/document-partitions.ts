import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Database, queryRows } from './database.js';

/**
 * Names of project_documents' partitions (migration 0020, whose SQL functions use the same ones):
 * every project's rows are in the default partition until a large restore gives the project its own,
 * named by the md5 of its id (ids are free text, a table name is not).
 */
export const DEFAULT_PARTITION = 'project_documents_default';

export const md5Hex = (text: string) => createHash('md5').update(text).digest('hex');

export const ownPartitionName = (projectId: string) => `project_documents_p_${md5Hex(projectId)}`;

/** Whether the project's rows are in a partition of their own. */
export async function hasOwnPartition(db: Database, projectId: string): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    db,
    sql`select to_regclass(${ownPartitionName(projectId)}) is not null as found`,
  );
  return row?.found === true;
}

import { createHash } from 'node:crypto';
import { FIELD_REGISTRY, type Field, type TableDefinition } from '@gantry/shared';
import { type SQL, sql } from 'drizzle-orm';
import { projectDocuments } from '../../db/schema.js';

/**
 * The expression indexes of a designer table's records (issue 16 §2 "the grid stays fast"). Records
 * live in `project_documents`, shared by every project and collection, so each index is partial: it
 * holds only the records of one table (`collection = 'table_record' AND project_id = … AND
 * doc->>'table' = …`) keyed by one field's value (the exact expression the list query filters and
 * sorts on, `dataField`) and the record id (the list's tie-break), so one index serves a filter, a
 * sort in either direction and keyset paging on that field.
 *
 * Which fields: the list's default sort field, then unique fields (the duplicate check looks them
 * up), then sortable fields, then filter fields, each in field order, skipping types whose values are
 * objects or files (no filter). At most `MAX_TABLE_INDEXES` per table: every index costs every
 * record write and disk, and a designer that marks every field sortable should not get 300 indexes.
 */
export const MAX_TABLE_INDEXES = 16;

/** Every record index's name starts with this, then the table's hash, then the field's. */
export const RECORD_INDEX_PREFIX = 'trx_';

const hash = (text: string, length: number) => createHash('sha256').update(text).digest('hex').slice(0, length);

/** The prefix of the index names of one table (`trx_<12 hex>_`). */
export function tableIndexPrefix(projectId: string, tableId: string): string {
  return `${RECORD_INDEX_PREFIX}${hash(`${projectId}/${tableId}`, 12)}_`;
}

/** The index name of one field: deterministic, 33 characters, a valid unquoted identifier. */
export function recordIndexName(projectId: string, tableId: string, field: string): string {
  return `${tableIndexPrefix(projectId, tableId)}${hash(field, 16)}`;
}

/** A SQL string literal (for DDL, which takes no parameters). */
export function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The `text[]` path literal of a field's value inside a record document: `'{data,"name"}'`. */
export function dataPathLiteral(name: string): string {
  return literal(`{data,"${name.replace(/[\\"]/g, '\\$&')}"}`);
}

/**
 * A value of the record's data as jsonb (JSON null read as SQL NULL). The path is a literal, not a
 * parameter, so the expression is the same text as the index's whatever plan the statement gets.
 */
export function dataFieldSql(name: string): SQL {
  return sql`nullif(${projectDocuments.doc} #> ${sql.raw(dataPathLiteral(name))}::text[], 'null'::jsonb)`;
}

function indexable(field: Field): boolean {
  if (field.type === 'subTable') return false;
  const type = FIELD_REGISTRY[field.type] as { filters: (options: unknown) => readonly string[] };
  return type.filters(field.options).length > 0;
}

/** The fields of a definition that get an index, in priority order, at most `MAX_TABLE_INDEXES`. */
export function indexedFields(definition: TableDefinition): string[] {
  const fields = definition.fields.filter(indexable);
  const chosen: string[] = [];
  const add = (name: string | undefined) => {
    if (name !== undefined && !chosen.includes(name) && fields.some((field) => field.name === name)) chosen.push(name);
  };
  add(definition.list.sortField);
  for (const field of fields) if (field.unique) add(field.name);
  for (const field of fields) if (field.sortable) add(field.name);
  for (const field of fields) if (field.showInFilter) add(field.name);
  return chosen.slice(0, MAX_TABLE_INDEXES);
}

/**
 * The planner uses no statistics of a partial index's expressions (nor of `doc ->> 'table'`, whose
 * index is partial too), so without these it guesses 0.5 % for every condition on a field and picks
 * the filter's index and a sort over the sort field's index and a short walk. Statistics objects on
 * the same expressions (PostgreSQL 14+) give it the values' real distribution; one on project,
 * collection and table gives a table's share of the records. Like the indexes they are made on the
 * partition that holds the project's rows: a query of one project is planned on that partition, with
 * its own statistics, not the partitioned table's.
 */
export function tableStatisticsSql(partition: string): string {
  return `CREATE STATISTICS IF NOT EXISTS ${checkedPartition(partition)}_tstats (mcv) ON project_id, collection, (doc ->> 'table') FROM ${partition}`;
}

/** The statistics object of a field's index (the index name with `trs_` for `trx_`). */
export function statisticsName(indexName: string): string {
  return `trs_${indexName.slice(RECORD_INDEX_PREFIX.length)}`;
}

export function createStatisticsSql(projectId: string, tableId: string, field: string, partition: string): string {
  const name = statisticsName(recordIndexName(projectId, tableId, field));
  return `CREATE STATISTICS IF NOT EXISTS ${name} ON (nullif(doc #> ${dataPathLiteral(field)}::text[], 'null'::jsonb)) FROM ${checkedPartition(partition)}`;
}

/** A partition's name, checked before it goes into DDL as it is. */
function checkedPartition(partition: string): string {
  if (!/^project_documents_\w+$/.test(partition)) throw new Error(`not a document partition: ${partition}`);
  return partition;
}

/**
 * `CREATE INDEX` of one field's record index (`concurrently` on PostgreSQL: writes go on meanwhile),
 * on the partition that holds the project's rows (`partition`, a plain name): a partitioned table
 * takes no concurrent index, and the others' partitions need none.
 */
export function createIndexSql(
  projectId: string,
  tableId: string,
  field: string,
  concurrently: boolean,
  partition: string,
): string {
  return [
    `CREATE INDEX ${concurrently ? 'CONCURRENTLY ' : ''}IF NOT EXISTS ${recordIndexName(projectId, tableId, field)}`,
    `ON ${checkedPartition(partition)} ((nullif(doc #> ${dataPathLiteral(field)}::text[], 'null'::jsonb)), id)`,
    `WHERE collection = 'table_record' AND project_id = ${literal(projectId)} AND (doc ->> 'table') = ${literal(tableId)}`,
  ].join(' ');
}

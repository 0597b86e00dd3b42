import { type SQL, sql } from 'drizzle-orm';

/**
 * A run of an archive's document lines (joined by newlines) as rows (id, doc, create_time,
 * update_time), split and parsed one by one by the database (a line each is several times faster than
 * one JSON array of them: jsonb builds a large array slowly); a `projectId` field naming the source
 * project made the target's. OFFSET 0 keeps the subquery whole: pulled up, each use of `j` would
 * parse the line again.
 */
export function parsedLines(lines: string, retarget: { from: string; to: string }): SQL {
  return sql`(select j->>'id' as id,
      case when j->'doc'->>'projectId' = ${retarget.from} then jsonb_set(j->'doc', '{projectId}', to_jsonb(${retarget.to}::text)) else j->'doc' end as doc,
      (j->>'createTime')::timestamptz as create_time, (j->>'updateTime')::timestamptz as update_time
    from (select line::jsonb as j from string_to_table(${lines}, E'\n') as line offset 0) as parsed) as document`;
}

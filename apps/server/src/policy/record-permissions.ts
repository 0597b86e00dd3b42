import { type PermissionScope, type PermissionSubject, scopeFor, type TableDefinition } from '@gantry/shared';
import { and, type SQL, sql } from 'drizzle-orm';
import { projectDocuments } from '../db/schema.js';

/**
 * Record permissions of the table designer (backups-data-designer.md §4a), decided here and nowhere
 * else (design D8): which records a project user sees and manages (as SQL the table service ANDs
 * into its statements), whether they may add one, and which tables they see at all. The platform
 * caller (the administrator or the owning tenant) is no member: every record, every table.
 */

/** A project user whom a table's record permissions bound: who they are, and their department tree. */
export interface RecordMember {
  subject: PermissionSubject;
  /** The user's department and every department under it. */
  departmentTree: readonly string[];
}

/** A table's view, add and manage configurations. */
export type RecordPermissions = TableDefinition['permissions'];

/**
 * A project user as the permissions see them: `department` and the departments under it (`parents`:
 * every department's parent), breadth first from the user's own.
 */
export function recordMember(
  subject: PermissionSubject,
  parents: ReadonlyMap<string, string | undefined>,
): RecordMember {
  const tree: string[] = [];
  if (subject.department !== undefined) {
    const children = new Map<string, string[]>();
    for (const [id, parent] of parents)
      if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), id]);
    const seen = new Set<string>();
    const queue = [subject.department];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (seen.has(next)) continue;
      seen.add(next);
      tree.push(next);
      queue.push(...(children.get(next) ?? []));
    }
  }
  return { subject, departmentTree: tree };
}

/** A record permission scope as SQL over the record documents; undefined: every record. */
export function recordScopeSql(scope: PermissionScope, member: RecordMember | undefined): SQL | undefined {
  if (!member) return undefined;
  const doc = projectDocuments.doc;
  const { subject, departmentTree } = member;
  const anyOf = (values: readonly string[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  switch (scope) {
    case 'all':
      return undefined;
    case 'none':
      return sql`false`;
    case 'self':
      return sql`${doc} ->> 'createdBy' = ${subject.userId}`;
    case 'department':
      return subject.department === undefined ? sql`false` : sql`${doc} ->> 'createdDept' = ${subject.department}`;
    case 'departmentTree':
      return departmentTree.length === 0 ? sql`false` : sql`${doc} ->> 'createdDept' in (${anyOf(departmentTree)})`;
    case 'role':
      return subject.roles.length === 0
        ? sql`false`
        : sql`coalesce(${doc} -> 'createdRoles', '[]'::jsonb) ?| array[${anyOf(subject.roles)}]::text[]`;
  }
}

/** The records `member` may see (view), as SQL; undefined: every record. */
export function viewableRecords(permissions: RecordPermissions, member: RecordMember | undefined): SQL | undefined {
  return member && recordScopeSql(scopeFor(permissions.view, member.subject), member);
}

/** The records `member` may change or delete: manage, limited by view; undefined: every record. */
export function manageableRecords(permissions: RecordPermissions, member: RecordMember | undefined): SQL | undefined {
  if (!member) return undefined;
  return and(
    recordScopeSql(scopeFor(permissions.manage, member.subject), member),
    viewableRecords(permissions, member),
  );
}

/** Whether `member` may add a record (the add configurations reach some records). */
export function mayAddRecord(permissions: RecordPermissions, member: RecordMember | undefined): boolean {
  return !member || scopeFor(permissions.add, member.subject) !== 'none';
}

/**
 * The tables `member` sees (the back office's list): those whose view configurations reach some of
 * their records; a table without a published definition has none. The platform caller sees them all.
 */
export function visibleTables<T>(
  tables: readonly T[],
  permissionsOf: (table: T) => RecordPermissions | undefined,
  member: RecordMember | undefined,
): T[] {
  if (!member) return [...tables];
  return tables.filter((table) => scopeFor(permissionsOf(table)?.view ?? [], member.subject) !== 'none');
}

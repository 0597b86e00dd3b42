import { type PermissionRule, tableDefinition } from '@gantry/shared';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import {
  manageableRecords,
  mayAddRecord,
  type RecordMember,
  type RecordPermissions,
  recordMember,
  recordScopeSql,
  viewableRecords,
  visibleTables,
} from './record-permissions.js';

const dialect = new PgDialect();
/** The statement text and its parameters. */
const show = (condition: SQL | undefined) => {
  if (!condition) return undefined;
  const { sql, params } = dialect.sqlToQuery(condition);
  return { sql, params };
};

const rule = (records: PermissionRule['records'], who: PermissionRule['who'] = 'all', ids: string[] = []) => ({
  who,
  ids,
  records,
});
const permissions = (view: PermissionRule[], add: PermissionRule[] = view, manage: PermissionRule[] = view) =>
  tableDefinition.parse({ permissions: { view, add, manage } }).permissions;

const member = (over: Partial<RecordMember['subject']> = {}, departmentTree: string[] = []): RecordMember => ({
  subject: { userId: 'u1', department: 'd1', roles: ['r1', 'r2'], ...over },
  departmentTree,
});

describe('recordMember', () => {
  it("gathers the user's department and every one under it, breadth first, cycles once", () => {
    const parents = new Map<string, string | undefined>([
      ['root', undefined],
      ['d1', 'root'],
      ['d2', 'd1'],
      ['d3', 'd1'],
      ['d4', 'd2'],
      ['other', 'root'],
      ['loop', 'd4'],
      ['d4b', 'loop'],
    ]);
    const subject = { userId: 'u1', department: 'd1', roles: [] };
    expect(recordMember(subject, parents)).toEqual({
      subject,
      departmentTree: ['d1', 'd2', 'd3', 'd4', 'loop', 'd4b'],
    });
    const cyclic = new Map<string, string | undefined>([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    expect(recordMember({ ...subject, department: 'a' }, cyclic).departmentTree).toEqual(['a', 'b']);
  });

  it('has no tree without a department', () => {
    const subject = { userId: 'u1', roles: ['r1'] };
    expect(recordMember(subject, new Map([['d1', undefined]])).departmentTree).toEqual([]);
  });
});

describe('recordScopeSql', () => {
  it('is no condition for the platform caller, whatever the scope', () => {
    expect(recordScopeSql('none', undefined)).toBeUndefined();
    expect(recordScopeSql('self', undefined)).toBeUndefined();
  });

  it('says each scope as a condition on the record document', () => {
    const who = member({}, ['d1', 'd2']);
    expect(recordScopeSql('all', who)).toBeUndefined();
    expect(show(recordScopeSql('none', who))).toEqual({ sql: 'false', params: [] });
    expect(show(recordScopeSql('self', who))).toEqual({
      sql: `"project_documents"."doc" ->> 'createdBy' = $1`,
      params: ['u1'],
    });
    expect(show(recordScopeSql('department', who))).toEqual({
      sql: `"project_documents"."doc" ->> 'createdDept' = $1`,
      params: ['d1'],
    });
    expect(show(recordScopeSql('departmentTree', who))).toEqual({
      sql: `"project_documents"."doc" ->> 'createdDept' in ($1, $2)`,
      params: ['d1', 'd2'],
    });
    expect(show(recordScopeSql('role', who))).toEqual({
      sql: `coalesce("project_documents"."doc" -> 'createdRoles', '[]'::jsonb) ?| array[$1, $2]::text[]`,
      params: ['r1', 'r2'],
    });
  });

  it('reaches nothing where the user has no department, department tree or role', () => {
    const bare = member({ department: undefined, roles: [] });
    for (const scope of ['department', 'departmentTree', 'role'] as const) {
      expect(show(recordScopeSql(scope, bare))).toEqual({ sql: 'false', params: [] });
    }
  });
});

describe('view, manage and add', () => {
  const own = permissions([rule('role', 'roles', ['r9']), rule('self')], [rule('none')], [rule('department')]);

  it('lets the platform caller see, manage and add everything', () => {
    expect(viewableRecords(own, undefined)).toBeUndefined();
    expect(manageableRecords(own, undefined)).toBeUndefined();
    expect(mayAddRecord(own, undefined)).toBe(true);
  });

  it('takes the first configuration that applies', () => {
    expect(show(viewableRecords(own, member()))?.sql).toContain(`'createdBy'`);
    expect(show(viewableRecords(own, member({ roles: ['r9'] })))?.params).toEqual(['r9']);
  });

  it('limits manage by view', () => {
    expect(show(manageableRecords(own, member()))).toEqual({
      sql: `("project_documents"."doc" ->> 'createdDept' = $1 and "project_documents"."doc" ->> 'createdBy' = $2)`,
      params: ['d1', 'u1'],
    });
    const everything = permissions([rule('all')]);
    expect(manageableRecords(everything, member())).toBeUndefined();
  });

  it('adds only where an add configuration reaches some records; none that applies: no', () => {
    expect(mayAddRecord(own, member())).toBe(false);
    expect(mayAddRecord(permissions([rule('self')]), member())).toBe(true);
    expect(mayAddRecord(permissions([rule('all', 'users', ['someone'])]), member())).toBe(false);
  });
});

describe('visibleTables', () => {
  const tables: { name: string; permissions: RecordPermissions | undefined }[] = [
    { name: 'open', permissions: permissions([rule('all')]) },
    { name: 'mine', permissions: permissions([rule('self', 'users', ['u1'])]) },
    { name: 'closed', permissions: permissions([rule('none')]) },
    { name: 'others', permissions: permissions([rule('all', 'roles', ['r9'])]) },
    { name: 'unpublished', permissions: undefined },
  ];
  const names = (list: typeof tables) => list.map((table) => table.name);

  it('shows the platform caller every table', () => {
    expect(names(visibleTables(tables, (table) => table.permissions, undefined))).toEqual(names(tables));
  });

  it('shows a project user the tables whose view configurations reach some of their records', () => {
    expect(names(visibleTables(tables, (table) => table.permissions, member()))).toEqual(['open', 'mine']);
  });
});

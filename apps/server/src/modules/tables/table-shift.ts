import type { TableShiftBody } from '@gantry/shared';
import { AppError } from '../../lib/app-error.js';
import type { GatedProject } from '../../plugins/project-gate.js';
import { mayShiftTable } from '../../policy/policy.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { admitTables } from '../licence/table-gate.js';
import { tenantOf } from '../projects/project.service.js';
import type { TableRepository, TableRow } from './table.repository.js';
import type { TableService } from './table.service.js';

export interface ShiftResult {
  id: string;
  name: string;
  project: string;
  mode: TableShiftBody['mode'];
  records: number;
}

/** The tables a table's definitions (draft or published) relate to, and the source it maps, by id. */
function tablesNamedBy(table: TableRow): Map<string, string> {
  const named = new Map<string, string>();
  for (const definition of [table.doc.published, table.doc.draft]) {
    for (const field of definition?.fields ?? [])
      if (field.type === 'relation') named.set(field.options.table, field.name);
  }
  if (table.doc.mapping) named.set(table.doc.mapping.source, table.doc.name);
  return named;
}

/**
 * Shift table (backups-data-designer.md §4a; issue 32): a table with its records moved or copied to
 * another project of the same owner, in one transaction (nothing half-shifted), through the target's
 * table-count gate, audited in the same transaction. Ids are kept (relations between the table's own
 * records stay valid); a target holding the same id or name refuses it.
 */
export class TableShift {
  constructor(
    private readonly deps: {
      repo: TableRepository;
      tables: TableService;
      audit: AuditService;
      /** The target project as the project gate resolves it for the caller (404, read-only 409). */
      resolve: (actor: Actor, projectId: string) => Promise<GatedProject>;
    },
  ) {}

  async shift(actor: Actor, from: GatedProject, id: string, body: TableShiftBody): Promise<ShiftResult> {
    const { repo, tables, audit } = this.deps;
    if (body.project === from.id) throw new AppError('tableShiftSameProject');
    const to = await this.deps.resolve(actor, body.project);
    mayShiftTable(actor.user, from, to);
    const move = body.mode === 'move';
    const result = await repo.transaction(async (tx) => {
      const table = await repo.getTable(from.id, id, tx, true);
      if (!table) throw new AppError('tableNotFound');
      const targetTables = await repo.listTables(to.id, tx);
      const present = new Set(targetTables.map((row) => row.id));
      for (const [related, field] of tablesNamedBy(table))
        if (related !== id && !present.has(related)) throw new AppError('tableShiftRelation', { params: { field } });
      if (move) {
        const relating = (await repo.listTables(from.id, tx)).find(
          (row) => row.id !== id && tablesNamedBy(row).has(id),
        );
        if (relating) throw new AppError('tableShiftRelated', { params: { name: relating.doc.name } });
      }
      const name = table.doc.name.toLowerCase();
      if (targetTables.some((row) => row.id === id || row.doc.name.toLowerCase() === name))
        throw new AppError('tableShiftConflict', { params: { name: table.doc.name } });
      try {
        await admitTables(tx, to.id, 1);
      } catch (error) {
        if (error instanceof AppError && error.code === 'tableLimit')
          throw new AppError('tableShiftLimit', { params: error.options.params ?? {} });
        throw error;
      }
      const records = await repo.shiftTable(from.id, to.id, id, move, tx);
      await audit.record(
        actor,
        {
          action: 'project.tableShift',
          objectType: 'project',
          objectId: from.id,
          tenantId: tenantOf(from.ownerId),
          detail: { table: id, name: table.doc.name, target: to.id, mode: body.mode, records },
        },
        tx,
      );
      return { id, name: table.doc.name, project: to.id, mode: body.mode, records };
    });
    await tables.tableShifted(from.id, to.id, id, move);
    return result;
  }
}

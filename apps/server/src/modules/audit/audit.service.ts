import { AUDIT_EXPORT_MAX, type AuditAction, type AuditObjectType } from '@gantry/shared';
import { and } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { ListQuery, ParsedFilter } from '../../lib/list-query/list-query.js';
import { auditScope, auditTenantOf } from '../../policy/policy.js';
import type { UserRow } from '../users/user.repository.js';
import { type AuditEntryView, auditView } from './audit.presenter.js';

/** Entries read per query of an export. */
const EXPORT_PAGE = 1_000;

import type { AuditRepository } from './audit.repository.js';

/** Who acted and from where: taken from the request by the routes. */
export interface Actor {
  user: UserRow;
  ip: string;
  /** The API token the call came with, named in every entry it causes. */
  apiToken?: { id: string; name: string } | undefined;
}

export interface AuditEvent {
  action: AuditAction;
  objectType: AuditObjectType;
  objectId?: string | undefined;
  /** The tenant the object belongs to, so the tenant sees the entry too. */
  tenantId?: string | null | undefined;
  detail?: Record<string, unknown> | undefined;
}

/**
 * The audit log of administrative actions. An entry is written in the action's own transaction
 * (`db` is that transaction, and required): the action and its entry commit or roll back together.
 */
export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly clock: Clock,
  ) {}

  record(actor: Actor, event: AuditEvent, tx: Database): Promise<void> {
    return this.repo.record(
      {
        actorId: actor.user.id,
        actorName: actor.user.name,
        tenantId: event.tenantId ?? auditTenantOf(actor.user),
        action: event.action,
        objectType: event.objectType,
        objectId: event.objectId ?? null,
        ip: actor.ip,
        detail: actor.apiToken ? { ...event.detail, apiToken: actor.apiToken } : (event.detail ?? null),
      },
      tx,
      this.clock(),
    );
  }

  /**
   * An entry by someone who is not (or not yet) a signed-in user: an identity single sign-on refused
   * or made a tenant for. The entry's tenant is the event's.
   */
  recordBy(who: { id: string; name: string; ip: string }, event: AuditEvent, tx: Database): Promise<void> {
    return this.repo.record(
      {
        actorId: who.id,
        actorName: who.name,
        tenantId: event.tenantId ?? null,
        action: event.action,
        objectType: event.objectType,
        objectId: event.objectId ?? null,
        ip: who.ip,
        detail: event.detail ?? null,
      },
      tx,
      this.clock(),
    );
  }

  /** The entries `user` may see (the policy's audit scope), listed. */
  async list(user: UserRow, query: ListQuery) {
    const { rows, total } = await this.repo.list(query, auditScope(user));
    return { items: rows.map(auditView), total };
  }

  /**
   * The entries `user` may see that match `filter`, newest first, at most AUDIT_EXPORT_MAX, read a
   * page at a time (keyset on the id) so an export holds one page in memory whatever its size.
   */
  async *export(user: UserRow, filter: ParsedFilter): AsyncGenerator<AuditEntryView> {
    const where = and(auditScope(user), filter.where);
    let before: number | undefined;
    let sent = 0;
    while (sent < AUDIT_EXPORT_MAX) {
      const rows = await this.repo.pageBefore(where, before, Math.min(EXPORT_PAGE, AUDIT_EXPORT_MAX - sent));
      for (const row of rows) yield auditView(row);
      sent += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < EXPORT_PAGE) return;
      before = last.id;
    }
  }

  count(user: UserRow, filter: ParsedFilter) {
    return this.repo.count(and(auditScope(user), filter.where));
  }
}

import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { auditTenantOf } from '../../policy/policy.js';
import type { UserRow } from '../users/user.repository.js';
import type { AuditRepository, AuditRow } from './audit.repository.js';

/** Who acted and from where: taken from the request by the routes. */
export interface Actor {
  user: UserRow;
  ip: string;
}

export interface AuditEvent {
  action: string;
  objectType: 'tenant' | 'project' | 'licence' | 'settings';
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
        detail: event.detail ?? null,
      },
      tx,
      this.clock(),
    );
  }
}

/** An entry as answered: the time as ISO text. */
export function auditView(row: AuditRow) {
  return { ...row, at: row.at.toISOString() };
}

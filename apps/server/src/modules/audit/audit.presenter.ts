import { z } from 'zod';
import type { AuditRow } from './audit.repository.js';

/** An audit entry as the API answers it (the list and the dashboard's recent entries). */
export const auditEntryView = z.object({
  id: z.number(),
  at: z.string(),
  actorId: z.string(),
  actorName: z.string(),
  tenantId: z.string().nullable(),
  action: z.string(),
  objectType: z.string(),
  objectId: z.string().nullable(),
  ip: z.string().nullable(),
  detail: z.unknown(),
});
export type AuditEntryView = z.infer<typeof auditEntryView>;

/** A row as answered: the time as ISO text. */
export function auditView(row: AuditRow): AuditEntryView {
  return { ...row, at: row.at.toISOString() };
}

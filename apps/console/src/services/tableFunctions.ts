import type { FieldType } from '@gantry/shared';
import { request } from './request';
import type { TableDetail } from './tables';

/** The table functions' calls (shift table, mapping table sync; docs/API.md), loaded with their dialogs. */
const BASE = 'rest/spm/tables';
const headers = (projectId: string) => ({ 'x-request-project': projectId });

/** What a shift answers: where the table went, how many records went with it, the message to show. */
export interface TableShifted {
  id: string;
  project: string;
  mode: 'copy' | 'move';
  records: number;
  message: string;
}
/** Shift table: to another project of the same owner, copied or moved with its records. */
export const shiftTable = (projectId: string, id: string, body: { project: string; mode: 'copy' | 'move' }) =>
  request<TableShifted>(`${BASE}/${id}/shift`, { method: 'POST', body, headers: headers(projectId) });
/** A mapping table's sync step: what changed in its source since the last sync, and what confirming deletes. */
export interface SyncPreview {
  source: string;
  sourceVersion: number;
  syncedVersion: number;
  changes: Array<{
    field: string;
    title: string;
    change: 'added' | 'removed' | 'typeChanged';
    from?: FieldType;
    to?: FieldType;
    values: number;
  }>;
  mismatched: string[];
}
export const syncPreview = (projectId: string, id: string) =>
  request<SyncPreview>(`${BASE}/${id}/sync`, { headers: headers(projectId) });
export const confirmSync = (projectId: string, id: string, sourceVersion: number) =>
  request<TableDetail>(`${BASE}/${id}/sync`, { method: 'POST', body: { sourceVersion }, headers: headers(projectId) });

import type { Field, FieldType, RegionTree, TableDefinition } from '@gantry/shared';
import { fetchList, type ListQuery } from './list';
import { request } from './request';

/** The table designer's calls (`rest/spm/tables…`, docs/API.md), the project in its header. */
export interface TableSummary {
  id: string;
  name: string;
  title: string | null;
  state: 'draft' | 'published';
  unpublishedChanges: boolean;
  draftVersion: number;
  version: number;
  /** A mapping table's source and the source version it was last synced with. */
  mapping?: { source: string; sourceVersion: number; syncedAt: string } | null;
}
export interface TableDetail extends TableSummary {
  draft: TableDefinition;
  published: TableDefinition | null;
}
/** A field's change in the publish difference, with the record values it holds, converts and drops. */
export interface FieldChange {
  field: string;
  title: string;
  change: 'added' | 'removed' | 'typeChanged' | 'optionsChanged';
  from?: FieldType;
  to?: FieldType;
  values: number;
  converted: number;
  dropped: number;
}
export interface PublishPreview {
  changes: FieldChange[];
  /** Other parts of the definition changed (rules, permissions, list…), by key. */
  settingsChanged: string[];
  draftVersion: number;
  records: number;
}
export interface TableRecord {
  id: string;
  data: Record<string, unknown>;
  createdBy?: string | null;
  updatedBy?: string | null;
  createTime: string;
  updateTime?: string;
}

const BASE = 'rest/spm/tables';
const headers = (projectId: string) => ({ 'x-request-project': projectId });

export const listTables = (projectId: string) => request<TableSummary[]>(BASE, { headers: headers(projectId) });
export const getTable = (projectId: string, id: string) =>
  request<TableDetail>(`${BASE}/${id}`, { headers: headers(projectId) });
export const createTable = (projectId: string, name: string, source?: string) =>
  request<TableDetail>(BASE, {
    method: 'POST',
    body: source === undefined ? { name } : { name, source },
    headers: headers(projectId),
  });

export const renameTable = (projectId: string, id: string, change: { name?: string; title?: string }) =>
  request<TableDetail>(`${BASE}/${id}`, { method: 'PATCH', body: change, headers: headers(projectId) });
export const deleteTable = (projectId: string, id: string) =>
  request<{ id: string }>(`${BASE}/${id}`, { method: 'DELETE', headers: headers(projectId) });
/** Save draft; its failures carry `fields` (by path) and come back without a toast. */
export const saveDraft = (
  projectId: string,
  id: string,
  definition: { fields: Array<Partial<Field>> } & Record<string, unknown>,
) =>
  request<TableDetail>(`${BASE}/${id}/draft`, {
    method: 'PUT',
    body: definition,
    headers: headers(projectId),
    noMessage: true,
  });
export const publishPreview = (projectId: string, id: string) =>
  request<PublishPreview>(`${BASE}/${id}/publish`, { headers: headers(projectId) });
export const publishTable = (projectId: string, id: string, draftVersion: number) =>
  request<{ table: TableDetail }>(`${BASE}/${id}/publish`, {
    method: 'POST',
    body: { draftVersion },
    headers: headers(projectId),
    noMessage: true,
  });
/** A page of records (the list query language over the fields by identifier) with its total. */
export const listRecords = (projectId: string, id: string, query: ListQuery = {}) =>
  fetchList<TableRecord>(`${BASE}/${id}/records`, query, { headers: headers(projectId) });
/** Edit: the values given (PATCH), checked by the server like a create; failures carry `fields`. */
export const updateRecord = (projectId: string, id: string, recordId: string, values: Record<string, unknown>) =>
  request<TableRecord>(`${BASE}/${id}/records/${recordId}`, {
    method: 'PATCH',
    body: values,
    headers: headers(projectId),
    noMessage: true,
  });
/** Batch edit: the same values to every record named, all or none. */
export const batchUpdateRecords = (projectId: string, id: string, ids: string[], values: Record<string, unknown>) =>
  request<{ updated: number }>(`${BASE}/${id}/records`, {
    method: 'PATCH',
    body: { ids, values },
    headers: headers(projectId),
  });
export const createRecord = (projectId: string, id: string, values: Record<string, unknown>) =>
  request<TableRecord>(`${BASE}/${id}/records`, {
    method: 'POST',
    body: values,
    headers: headers(projectId),
    noMessage: true,
  });
export const deleteRecord = (projectId: string, id: string, recordId: string) =>
  request<{ id: string }>(`${BASE}/${id}/records/${recordId}`, { method: 'DELETE', headers: headers(projectId) });

/** China's administrative regions (`GET rest/spm/region`): the tree region values are paths of. */
export const listRegions = () => request<RegionTree>('rest/spm/region');

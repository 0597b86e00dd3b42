import type { MachineInfoRow } from '@gantry/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchList, type ListPage, type ListQuery } from './list';
import { request, requestBlob } from './request';

/** The licence history (machine information) of the core service: read-only, newest first. */
export const MACHINE_INFO_PATH = 'rest/core/license/machineInfo';
export const HISTORY_SORT: ListQuery['sort'] = { time: -1 };

export interface HistoryPageParams {
  page: number;
  pageSize: number;
}

export function fetchHistory({ page, pageSize }: HistoryPageParams): Promise<ListPage<MachineInfoRow>> {
  return fetchList<MachineInfoRow>(MACHINE_INFO_PATH, {
    sort: HISTORY_SORT,
    skip: (page - 1) * pageSize,
    limit: pageSize,
  });
}

export function useHistory(params: HistoryPageParams) {
  return useQuery({
    queryKey: ['licenceHistory', 'list', params],
    queryFn: () => fetchHistory(params),
    placeholderData: keepPreviousData,
  });
}

export function fetchHistoryRow(id: string): Promise<MachineInfoRow> {
  return request(`${MACHINE_INFO_PATH}/${encodeURIComponent(id)}`);
}

/** One row, shown with the list's copy until the server's answer arrives. */
export function useHistoryRow(row: MachineInfoRow | null) {
  return useQuery({
    queryKey: ['licenceHistory', 'row', row?.id ?? null],
    queryFn: () => fetchHistoryRow(row?.id ?? ''),
    enabled: row !== null,
    placeholderData: row ?? undefined,
  });
}

/** GET machineInfo/export: the whole history (same order as the table) as CSV. */
export function exportHistory(): Promise<Blob> {
  return requestBlob(`${MACHINE_INFO_PATH}/export`, { query: { query: JSON.stringify({ sort: HISTORY_SORT }) } });
}

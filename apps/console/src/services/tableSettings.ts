import { type TableSetting, type TenantView, tableSetting } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from './request';
import { useSessionUser } from './session';

/**
 * List preferences (console.md §3) live on the signed-in user's own record: read from
 * `GET user/{id}` → `tableSettings[table]`, saved with `PATCH user/{id} {tableSettings: {[table]: …}}`
 * (the server merges by table name). The administrator's record is `admin`, a tenant's its own id.
 */
export const ownRecordKey = (id: string | null) => ['ownRecord', id] as const;

export function fetchOwnRecord(id: string): Promise<TenantView> {
  // Preferences are a comfort: failing to read them leaves the defaults, without a toast.
  return request(`rest/spm/user/${encodeURIComponent(id)}`, { noMessage: true });
}

export function saveTableSetting(id: string, table: string, setting: TableSetting): Promise<TenantView> {
  return request(`rest/spm/user/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { tableSettings: { [table]: setting } },
  });
}

/** The stored preferences of `table` (undefined until read or when none are stored) and their saver. */
export function useTableSetting(table: string) {
  const user = useSessionUser();
  const id = user ? user.userId || user.id : null;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ownRecordKey(id),
    queryFn: () => fetchOwnRecord(id ?? ''),
    enabled: id !== null,
    staleTime: 5 * 60_000,
  });
  const parsed = tableSetting.safeParse(query.data?.tableSettings?.[table]);
  const stored = parsed.success ? parsed.data : undefined;

  const save = async (setting: TableSetting): Promise<void> => {
    if (!id) return;
    const saved = await saveTableSetting(id, table, setting);
    queryClient.setQueryData<TenantView>(ownRecordKey(id), (previous) => {
      const base = saved ?? previous;
      if (!base) return base;
      return { ...base, tableSettings: { ...previous?.tableSettings, ...saved?.tableSettings, [table]: setting } };
    });
  };

  return { stored, loading: id !== null && query.isPending, save };
}

import { ADMIN_USER_ID, INDUSTRIES, type Industry } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { listOwnerOptions } from '../../services/project';

export function industryLabel(t: TFunction, industry: string | null | undefined): string {
  if (!industry) return '-';
  return (INDUSTRIES as readonly string[]).includes(industry)
    ? t(`project.industry.${industry as Industry}`)
    : industry;
}

export function industryOptions(t: TFunction) {
  return INDUSTRIES.map((value) => ({ value, label: t(`project.industry.${value}`) }));
}

/**
 * Owners a project may have (administrator only): the platform ('admin') and every tenant, from
 * GET user?query={"limit":9999,"project":["id","name"]}.
 */
export function useOwnerOptions(t: TFunction, enabled: boolean) {
  const query = useQuery({ queryKey: ['projectOwners'], queryFn: listOwnerOptions, enabled, staleTime: 60_000 });
  const options = [
    { value: ADMIN_USER_ID, label: t('project.platformOwner') },
    ...(query.data ?? []).filter((o) => o.id !== ADMIN_USER_ID).map((o) => ({ value: o.id, label: o.name })),
  ];
  return { options, loading: query.isPending && enabled };
}

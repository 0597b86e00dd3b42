import { REGION_LEVELS, type RegionNode, regionNames } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { Cascader } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { listRegions } from '../../../../services/tables';
import { textsOf } from '../../../../utils/formValues';

/** The region tree, fetched once per session (it changes only with the server's reference data). */
export function useRegions() {
  return useQuery({ queryKey: ['regions'], queryFn: listRegions, staleTime: Number.POSITIVE_INFINITY });
}

interface RegionOption {
  value: string;
  label: string;
  children?: RegionOption[];
}

function options(nodes: readonly RegionNode[], depth: number): RegionOption[] {
  return nodes.map((node) => ({
    value: node.c,
    label: node.n,
    ...(depth > 1 && node.d?.length ? { children: options(node.d, depth - 1) } : {}),
  }));
}

/** A region chosen province → city → county, as deep as the field's level. */
export function RegionEditor({
  level,
  value,
  onChange,
  testId,
  status,
}: {
  level: (typeof REGION_LEVELS)[number];
  value: unknown;
  onChange: (value: unknown) => void;
  testId?: string | undefined;
  status?: 'error' | undefined;
}) {
  const { t } = useTranslation();
  const regions = useRegions();
  // About 3,700 regions: built again only when the tree or the level changes, not on every keystroke.
  const choices = useMemo(() => options(regions.data ?? [], REGION_LEVELS.indexOf(level) + 1), [regions.data, level]);
  return (
    <Cascader
      data-testid={testId}
      status={status}
      loading={regions.isPending}
      options={choices}
      value={Array.isArray(value) ? textsOf(value) : undefined}
      placeholder={t('designer.rec.regionHint')}
      showSearch
      onChange={(next) => onChange(Array.isArray(next) && next.length > 0 ? next : undefined)}
    />
  );
}

/** A region's names ("河北省 / 石家庄市 / 长安区"); its codes until the tree has loaded. */
export function RegionText({ codes }: { codes: readonly string[] }) {
  const regions = useRegions();
  return (regions.data ? regionNames(regions.data, codes) : codes).join(' / ');
}

import type { TABLE_DENSITIES, TableSetting } from '@gantry/shared';
import type { ReactNode } from 'react';

export type Density = (typeof TABLE_DENSITIES)[number];
/** Density → antd Table size. */
export const DENSITY_SIZE: Record<Density, 'large' | 'middle' | 'small'> = {
  loose: 'large',
  middle: 'middle',
  compact: 'small',
};

/** A column the user may show, hide and move. */
export interface ColumnOption {
  key: string;
  title: ReactNode;
}

function unique(keys: readonly string[]): string[] {
  return [...new Set(keys)];
}

/** Every column in the stored order: keys that no longer exist dropped, columns added since appended. */
export function orderedKeys(all: readonly string[], stored: TableSetting | undefined): string[] {
  const known = new Set(all);
  const order = unique([...(stored?.order ?? []), ...(stored?.columns ?? [])]).filter((key) => known.has(key));
  const placed = new Set(order);
  return [...order, ...all.filter((key) => !placed.has(key))];
}

/**
 * Visible columns, in order: the stored selection plus columns the stored preferences never saw.
 * Falls back to every column should nothing remain (a table always shows one).
 */
export function visibleKeys(all: readonly string[], stored: TableSetting | undefined): string[] {
  const ordered = orderedKeys(all, stored);
  if (!stored) return ordered;
  const chosen = new Set(stored.columns);
  const seen = new Set([...(stored.order ?? []), ...stored.columns]);
  const visible = ordered.filter((key) => chosen.has(key) || !seen.has(key));
  return visible.length > 0 ? visible : ordered;
}

/** The preferences in force: the stored ones reconciled with today's columns, else the defaults. */
export function effectiveSetting(
  all: readonly string[],
  stored: TableSetting | undefined,
  defaults: { pageSize: number; density?: Density },
): TableSetting {
  return {
    columns: visibleKeys(all, stored),
    order: orderedKeys(all, stored),
    density: stored?.density ?? defaults.density ?? 'middle',
    pageSize: stored?.pageSize ?? defaults.pageSize,
    ...(stored?.view ? { view: stored.view } : {}),
  };
}

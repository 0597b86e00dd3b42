import type { TableSetting } from '@gantry/shared';
import type { ColumnType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTableSetting } from '../../services/tableSettings';
import type { ColumnSettingsProps } from './ColumnSettings';
import { DENSITY_SIZE, type Density, effectiveSetting } from './layout';

/** A configurable column: a stable string key and a plain title (shown in the picker too). */
export type KeyedColumn<T> = Omit<ColumnType<T>, 'key' | 'title'> & { key: string; title: ReactNode };

export interface TableLayout<T> {
  /** The visible configurable columns, in the chosen order (append fixed ones such as actions). */
  columns: KeyedColumn<T>[];
  size: 'large' | 'middle' | 'small';
  pageSize: number;
  /** False until the stored preferences are read (avoid a first page of the wrong size). */
  ready: boolean;
  /** Props for `<ColumnSettings {...settingsProps} />`. */
  settingsProps: ColumnSettingsProps;
}

/**
 * A table's list preferences (console.md §3): the columns, density and page size in force for
 * `table`, stored on the signed-in user's record, and the props of its ColumnSettings popover.
 */
export function useTableLayout<T>(
  table: string,
  columns: KeyedColumn<T>[],
  defaults: { pageSize: number; density?: Density },
  testId?: string,
): TableLayout<T> {
  const { stored, loading, save } = useTableSetting(table);
  const keys = columns.map((c) => c.key);
  const setting = effectiveSetting(keys, stored, defaults);
  const initial: TableSetting = effectiveSetting(keys, undefined, defaults);
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const visible = setting.columns.flatMap((key) => {
    const column = byKey.get(key);
    return column ? [column] : [];
  });
  return {
    columns: visible,
    size: DENSITY_SIZE[setting.density],
    pageSize: setting.pageSize,
    ready: !loading,
    settingsProps: {
      options: columns.map((c) => ({ key: c.key, title: c.title })),
      setting,
      defaults: initial,
      onSave: save,
      ...(testId ? { testId } : {}),
    },
  };
}

export { ColumnSettings, type ColumnSettingsProps } from './ColumnSettings';
export { type ColumnOption, DENSITY_SIZE, type Density, effectiveSetting, orderedKeys, visibleKeys } from './layout';
export { type KeyedColumn, type TableLayout, useTableLayout } from './useTableLayout';

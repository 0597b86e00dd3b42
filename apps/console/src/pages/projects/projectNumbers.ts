import { COUNT_DISPLAY_MAX, type MeasurePath, measureOf, type ProjectView } from '@gantry/shared';

/** What a project may still use of a measure: granted minus reported usage; null when the grant sets no limit. */
export function remainingOf(project: Pick<ProjectView, 'grant' | 'license'>, path: MeasurePath): number | null {
  const granted = measureOf(project.grant, path);
  if (granted === undefined) return null;
  return granted - (measureOf(project.license, path) ?? 0);
}

/** Counts over COUNT_DISPLAY_MAX show as '999+', the exact value going to a tooltip. */
export function displayCount(value: number): { text: string; exact: string | null } {
  if (value > COUNT_DISPLAY_MAX) return { text: `${COUNT_DISPLAY_MAX}+`, exact: value.toLocaleString() };
  return { text: String(value), exact: null };
}

/** Devices of a project: the sums of count and online over its `_stats_`. */
export function deviceStats(stats: ProjectView['_stats_'] | null | undefined): { total: number; online: number } {
  let total = 0;
  let online = 0;
  for (const item of stats ?? []) {
    total += item.count;
    online += item.online;
  }
  return { total, online };
}

import type { Grant, GrantView } from './licence.js';
import { type CoreMessageKey, isCoreMessageKey, translateCore } from './messages.js';
import { type Language, LICENCE_COUNT_MAX, LICENCE_TABLE_COUNT_MAX } from './validations.js';

/**
 * Licence grants (console.md §3, §5; design D7): the platform grants to a tenant, the tenant (or the
 * administrator, for platform projects) allocates part of it to each project. These rules are the
 * single source for the console's form and the server's checks. This module imports no zod (the
 * schemas are in licence.ts), so the console's pages that only show grants do not load it.
 */

export const FEATURE_KEYS = [
  'gis',
  'threeD',
  'isc',
  'hikH5',
  'dashboardPlayback',
  'site2APK',
  'DST',
  'handlerNotification',
  'handlerGateway',
  'handlerScript',
  'Oauth',
  'sdk',
  'DI',
  'AI',
  'video',
  'pressMoney',
  'kafka',
  'dataRelay',
] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];
/** The legacy feature value that stands for DST and DI together. */
export const LEGACY_BI = 'BI';

/** Features a list enables, with the legacy BI expanded. */
export function effectiveFeatures(features: readonly string[] | undefined): Set<string> {
  const set = new Set(features ?? []);
  if (set.has(LEGACY_BI)) {
    set.add('DST');
    set.add('DI');
  }
  return set;
}

/**
 * Quantitative measures, as dotted paths into a grant. `required` ones must be present in every
 * grant; an optional one left empty has no limit of its own (it shares its parent's).
 */
export const MEASURES = [
  { path: 'userCount', required: true, max: LICENCE_COUNT_MAX },
  { path: 'flow.tableCount', required: true, max: LICENCE_TABLE_COUNT_MAX },
  { path: 'dataGathering.point', required: false, max: LICENCE_COUNT_MAX },
  { path: 'dataGathering.calcPoint', required: false, max: LICENCE_COUNT_MAX },
  { path: 'dataGathering.deviceCount', required: false, max: LICENCE_COUNT_MAX },
  { path: 'visual.dashboardCount', required: false, max: LICENCE_COUNT_MAX },
  { path: 'flow.flowCount', required: false, max: LICENCE_COUNT_MAX },
  { path: 'eventCount', required: false, max: LICENCE_COUNT_MAX },
  { path: 'eventHandlerCount', required: false, max: LICENCE_COUNT_MAX },
  { path: 'reportCount', required: false, max: LICENCE_COUNT_MAX },
  { path: 'dataAnalysisLinkCount', required: false, max: LICENCE_COUNT_MAX },
] as const;
export type MeasurePath = (typeof MEASURES)[number]['path'];
export const MEASURE_PATHS: readonly MeasurePath[] = MEASURES.map((m) => m.path);
/** The default content of the dashboard (screen) count in a new grant form. */
export const DEFAULT_DASHBOARD_COUNT = 30;
export const VALIDITY_MAX_DAYS = LICENCE_COUNT_MAX;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/**
 * A real calendar day, years 1 to 9999: `Date.parse` rolls 2027-02-30 over to March 2 and takes year
 * 0, both of which PostgreSQL refuses as a date (the dashboard reads start dates as dates).
 */
export function isCalendarDate(date: string): boolean {
  if (!DATE.test(date) || date < '0001-01-01') return false;
  const time = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === date;
}

export type MeasureValues = Partial<Record<MeasurePath, number>>;

export function measureOf(grant: unknown, path: MeasurePath): number | undefined {
  let value: unknown = grant;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return typeof value === 'number' ? value : undefined;
}

const DAY_MS = 86_400_000;
/**
 * The last dates and days converted: a page of projects converts the same few dates for every
 * row (today, common start dates), and parsing them was 3 % of the server's list CPU (issue 33).
 */
const days = new Map<string, number>();
const dates = new Map<number, string>();
const CONVERSIONS_KEPT = 1024;
function remember<K, V>(cache: Map<K, V>, key: K, value: V): V {
  if (cache.size >= CONVERSIONS_KEPT) cache.clear();
  cache.set(key, value);
  return value;
}
/** Days since the epoch of a YYYY-MM-DD date (the calendar date, no time zone). */
export function dayNumber(date: string): number {
  return days.get(date) ?? remember(days, date, Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS));
}
export function dateOfDay(day: number): string {
  return dates.get(day) ?? remember(dates, day, new Date(day * DAY_MS).toISOString().slice(0, 10));
}
/** The local calendar date of an instant, YYYY-MM-DD. */
export function localDate(instant: Date): string {
  const y = instant.getFullYear();
  const m = String(instant.getMonth() + 1).padStart(2, '0');
  const d = String(instant.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}
/** The first day a grant no longer covers. */
export function grantEndDay(grant: Pick<Grant, 'startTime' | 'validityPeriod'>): number {
  return dayNumber(grant.startTime) + grant.validityPeriod;
}
/** Whole days the grant still covers from `today` (0 once it has ended; its full length before it starts). */
export function remainingDays(grant: Pick<Grant, 'startTime' | 'validityPeriod'>, today: string): number {
  const from = Math.max(dayNumber(today), dayNumber(grant.startTime));
  return Math.max(0, grantEndDay(grant) - from);
}
export function viewGrant(grant: Grant, today: string): GrantView {
  return { ...grant, remainingTime: remainingDays(grant, today), endTime: dateOfDay(grantEndDay(grant)) };
}
/** Whether a grant covers `today` (console.md §4: valid only from its start, within its duration). */
export function grantActive(grant: Pick<Grant, 'startTime' | 'validityPeriod'>, today: string): boolean {
  const day = dayNumber(today);
  return day >= dayNumber(grant.startTime) && day < grantEndDay(grant);
}

/** Adds up the measures of several grants (or usage reports); a measure nobody sets stays absent. */
export function sumMeasures(items: readonly unknown[]): MeasureValues {
  const total: MeasureValues = {};
  for (const item of items) {
    for (const path of MEASURE_PATHS) {
      const value = measureOf(item, path);
      if (value !== undefined) total[path] = (total[path] ?? 0) + value;
    }
  }
  return total;
}

export interface GrantProblem {
  /** Dotted path of the grant field, e.g. 'userCount' or 'startTime'. */
  field: string;
  key: CoreMessageKey;
  params: Record<string, string | number>;
}

export interface ParentContext {
  /** The parent's grant; undefined when there is none (the platform licence is missing). */
  parent: Grant | undefined;
  /** What the parent's other children already hold, by measure. */
  allocatedToOthers: MeasureValues;
  /** The parent's own children when the grant being checked is itself a parent (a tenant's projects). */
  allocatedBelow?: MeasureValues;
  /** Today's local date. */
  today: string;
  /** The start date stored before this change, if any: an unchanged start may lie in the past. */
  previousStart?: string;
  /** When the grant is itself a parent: the span and features its children already hold. */
  children?: ChildrenSpan;
}

/** What the grants below a parent cover together: earliest start, latest end, every feature. */
export interface ChildrenSpan {
  firstStartDay: number;
  lastEndDay: number;
  features: string[];
}

export function childrenSpan(grants: readonly Grant[]): ChildrenSpan | undefined {
  if (grants.length === 0) return undefined;
  return {
    firstStartDay: Math.min(...grants.map((g) => dayNumber(g.startTime))),
    lastEndDay: Math.max(...grants.map(grantEndDay)),
    features: [...new Set(grants.flatMap((g) => g.features))],
  };
}

/** A parent must keep covering what it has already handed down. */
function childrenProblems(grant: Grant, children: ChildrenSpan): GrantProblem[] {
  const problems: GrantProblem[] = [];
  if (dayNumber(grant.startTime) > children.firstStartDay) {
    problems.push({
      field: 'startTime',
      key: 'grant.laterThanChildren',
      params: { label: labelKey('startTime'), limit: dateOfDay(children.firstStartDay) },
    });
  }
  if (grantEndDay(grant) < children.lastEndDay) {
    problems.push({
      field: 'validityPeriod',
      key: 'grant.endBeforeChildren',
      params: { label: labelKey('endTime'), limit: dateOfDay(children.lastEndDay - 1) },
    });
  }
  const own = effectiveFeatures(grant.features);
  const dropped = children.features.find((f) => (f === LEGACY_BI ? !(own.has('DST') && own.has('DI')) : !own.has(f)));
  if (dropped) problems.push({ field: 'features', key: 'grant.featureInUse', params: { label: dropped } });
  return problems;
}

const labelKey = (field: string) => `grant.label.${field}` as CoreMessageKey;

/**
 * Every way `grant` breaks its parent's limits (console.md §5, licence form): counts within the
 * parent minus what its other children hold, start not before the parent's nor (when changed)
 * before today, duration within the parent's remaining days, end not after the parent's end,
 * features only from the parent's, every measure the parent limits stated, and never below what is
 * already allocated beneath it (counts, span of dates, features).
 * Messages carry a `label` param the caller translates from `grant.label.<field>`.
 */
export function grantProblems(grant: Grant, context: ParentContext): GrantProblem[] {
  const problems: GrantProblem[] = [];
  const { parent, today } = context;
  const start = dayNumber(grant.startTime);
  if (grant.startTime !== context.previousStart && start < dayNumber(today)) {
    problems.push({ field: 'startTime', key: 'grant.startBeforeToday', params: { label: labelKey('startTime') } });
  }
  const below = context.allocatedBelow ?? {};
  for (const { path } of MEASURES) {
    const value = measureOf(grant, path);
    const held = below[path];
    if (value !== undefined && held !== undefined && value < held) {
      problems.push({ field: path, key: 'grant.belowAllocated', params: { label: labelKey(path), allocated: held } });
    }
  }
  if (context.children) problems.push(...childrenProblems(grant, context.children));
  if (!parent) return problems;

  if (start < dayNumber(parent.startTime)) {
    problems.push({ field: 'startTime', key: 'grant.earlierThanParent', params: { label: labelKey('startTime') } });
  }
  const parentRemaining = remainingDays(parent, today);
  if (grant.validityPeriod > parentRemaining) {
    problems.push({
      field: 'validityPeriod',
      key: 'grant.exceedsParent',
      params: { label: labelKey('validityPeriod'), limit: parentRemaining },
    });
  } else if (grantEndDay(grant) > grantEndDay(parent)) {
    problems.push({
      field: 'validityPeriod',
      key: 'grant.endAfterParent',
      params: { label: labelKey('endTime'), limit: dateOfDay(grantEndDay(parent) - 1) },
    });
  }
  for (const { path } of MEASURES) {
    const limit = measureOf(parent, path);
    const value = measureOf(grant, path);
    if (limit === undefined) continue;
    // Where the parent sets a limit, every child states its share: an empty one would be unbounded.
    if (value === undefined) {
      problems.push({ field: path, key: 'grant.required', params: { label: labelKey(path) } });
      continue;
    }
    const available = limit - (context.allocatedToOthers[path] ?? 0);
    if (value > available) {
      problems.push({
        field: path,
        key: 'grant.exceedsParent',
        params: { label: labelKey(path), limit: Math.max(0, available) },
      });
    }
  }
  const allowed = effectiveFeatures(parent.features);
  for (const feature of grant.features) {
    const covered = feature === LEGACY_BI ? allowed.has('DST') && allowed.has('DI') : allowed.has(feature);
    if (!covered) {
      problems.push({ field: 'features', key: 'grant.featureNotInParent', params: { label: feature } });
      break;
    }
  }
  return problems;
}

/** A problem's text in a language, its field label translated first. */
export function grantProblemText(problem: GrantProblem, language: Language): string {
  const params = { ...problem.params };
  if (typeof params.label === 'string' && isCoreMessageKey(params.label))
    params.label = translateCore(params.label, language);
  return translateCore(problem.key, language, params);
}

import {
  type CoreMessageKey,
  DEFAULT_DASHBOARD_COUNT,
  dateOfDay,
  dayNumber,
  type Grant,
  grantEndDay,
  grantProblems,
  grantProblemText,
  grantSchema,
  isCoreMessageKey,
  type Language,
  MEASURES,
  type MeasurePath,
  translateCore,
} from '@gantry/shared';
import type { UnusedLicence } from '../../services/licence';

/** Every field the grant form edits, as dotted paths inside the grant object. */
export type GrantField = 'validityPeriod' | 'startTime' | MeasurePath | 'features';

/** The fields a grant must hold (console.md §5, licence form). */
export const REQUIRED_GRANT_FIELDS: readonly GrantField[] = [
  'validityPeriod',
  'startTime',
  ...MEASURES.filter((m) => m.required).map((m) => m.path),
];
export const GRANT_FIELDS: readonly GrantField[] = [
  'validityPeriod',
  'startTime',
  ...MEASURES.map((m) => m.path),
  'features',
];

export interface GrantCheckContext {
  pool: UnusedLicence | undefined;
  /** The stored start of the grant being edited (an unchanged start may lie in the past). */
  previousStart?: string;
  /** The local date, used until the pool (with the server's date) has arrived. */
  today: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function valueAt(values: unknown, path: string): unknown {
  let value: unknown = values;
  for (const part of path.split('.')) {
    if (!isRecord(value)) return undefined;
    value = value[part];
  }
  return value;
}

const labelKey = (field: string) => `grant.label.${field}` as CoreMessageKey;

/**
 * The grant as typed so far, for the shared cross-field rules. grantProblems reads each measure
 * through measureOf (absent = not set) and compares dates and durations, which come out false when
 * they are not filled in yet; only `features` must be an array. So a partial grant is safe to check.
 */
function partialGrant(values: unknown): Grant {
  const record = isRecord(values) ? values : {};
  const features = Array.isArray(record.features) ? record.features.filter((f) => typeof f === 'string') : [];
  const draft = { ...record, features };
  return checkableAsGrant(draft) ? draft : { ...EMPTY_GRANT, features };
}

/**
 * The one premise above, said once: a record whose `features` is an array is read by grantProblems
 * as a grant (its other fields read defensively). Not a proof that every field is filled in.
 */
function checkableAsGrant(draft: Record<string, unknown>): draft is Grant {
  return Array.isArray(draft.features);
}

/** Nothing filled in: every date and duration comparison comes out false, no measure is set. */
const EMPTY_GRANT: Grant = {
  validityPeriod: Number.NaN,
  startTime: '',
  userCount: Number.NaN,
  flow: { tableCount: Number.NaN },
  features: [],
};

/**
 * The message one field of a grant shows, or null: required first ('{{label}}不能为空'), then the
 * field's own rule from the shared grantSchema (whole numbers 1..max, YYYY-MM-DD), then the shared
 * grantProblems against the parent pool ('{{label}}不能大于授权{{label}}', …).
 */
export function grantFieldMessage(
  values: unknown,
  field: GrantField,
  context: GrantCheckContext,
  language: Language,
): string | null {
  const value = valueAt(values, field);
  if (value === undefined || value === null || value === '') {
    if (!REQUIRED_GRANT_FIELDS.includes(field)) return null;
    return translateCore('grant.required', language, { label: translateCore(labelKey(field), language) });
  }
  const parsed = grantSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues.find((i) => i.path.map(String).join('.') === field);
    if (issue) return isCoreMessageKey(issue.message) ? translateCore(issue.message, language) : issue.message;
  }
  const problem = grantProblems(partialGrant(values), {
    parent: context.pool?.parent ?? undefined,
    allocatedToOthers: context.pool?.allocated ?? {},
    today: context.pool?.today ?? context.today,
    previousStart: context.previousStart,
  }).find((p) => p.field === field);
  return problem ? grantProblemText(problem, language) : null;
}

/**
 * The start dates the picker offers: from today (and not before the parent's start) to the
 * parent's last day (its start plus its validity, exclusive).
 */
export function startDateBounds(pool: UnusedLicence | undefined, today: string): { min: string; max?: string } {
  const day = pool?.today ?? today;
  const parent = pool?.parent;
  if (!parent) return { min: day };
  const min = parent.startTime > day ? parent.startTime : day;
  return { min, max: dateOfDay(grantEndDay(parent) - 1) };
}

/** Whether the picker disables a date (YYYY-MM-DD). */
export function startDateDisabled(date: string, bounds: { min: string; max?: string }): boolean {
  return dayNumber(date) < dayNumber(bounds.min) || (bounds.max !== undefined && date > bounds.max);
}

/**
 * The screen count a new grant starts with: DEFAULT_DASHBOARD_COUNT, never more than the parent
 * has left (issue 10). Where the parent limits screens and has none left there is no default: the
 * field stays empty and says so, rather than a prefilled number the server would refuse. Without a
 * pool yet, or with a parent that does not limit screens, the plain default.
 */
export function defaultDashboardCount(pool: UnusedLicence | undefined): number | undefined {
  const available = pool?.parent ? pool.available['visual.dashboardCount'] : undefined;
  if (available === undefined) return DEFAULT_DASHBOARD_COUNT;
  return available >= 1 ? Math.min(DEFAULT_DASHBOARD_COUNT, available) : undefined;
}

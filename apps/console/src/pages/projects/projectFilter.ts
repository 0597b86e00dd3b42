import { INDUSTRIES, type Industry } from '@gantry/shared';
import dayjs from 'dayjs';
import { likeText } from '../../services/list';
import type { Where } from '../../services/project';

/** The list's filter (search box and advanced drawer), kept in sessionStorage (console.md §9). */
export interface ProjectFilter {
  name?: string;
  status?: boolean;
  industry?: Industry;
  /** Owner tenant id (administrator only); 'admin' = platform projects. */
  user?: string;
  /** Creation dates, YYYY-MM-DD, both included. */
  createTime?: [string, string];
}
export type FilterField = keyof ProjectFilter;
export const FILTER_FIELDS: readonly FilterField[] = ['name', 'status', 'industry', 'user', 'createTime'];
export const PROJECT_FILTER_KEY = 'project-filter';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Only the conditions that are set, each of the right type. */
export function cleanFilter(input: unknown): ProjectFilter {
  if (typeof input !== 'object' || input === null) return {};
  const raw = input as Record<string, unknown>;
  const filter: ProjectFilter = {};
  if (typeof raw.name === 'string' && raw.name.trim()) filter.name = raw.name.trim();
  if (typeof raw.status === 'boolean') filter.status = raw.status;
  if (typeof raw.industry === 'string' && (INDUSTRIES as readonly string[]).includes(raw.industry)) {
    filter.industry = raw.industry as Industry;
  }
  if (typeof raw.user === 'string' && raw.user) filter.user = raw.user;
  const range = raw.createTime;
  if (Array.isArray(range) && range.length === 2 && range.every((d) => typeof d === 'string' && DATE.test(d))) {
    filter.createTime = [range[0] as string, range[1] as string];
  }
  return filter;
}

export function readFilter(): ProjectFilter {
  try {
    const raw = sessionStorage.getItem(PROJECT_FILTER_KEY);
    return raw ? cleanFilter(JSON.parse(raw)) : {};
  } catch {
    return {};
  }
}

export function writeFilter(filter: ProjectFilter): void {
  try {
    const clean = cleanFilter(filter);
    if (Object.keys(clean).length === 0) sessionStorage.removeItem(PROJECT_FILTER_KEY);
    else sessionStorage.setItem(PROJECT_FILTER_KEY, JSON.stringify(clean));
  } catch {
    // storage unavailable: the filter lasts for this page only
  }
}

/** The where clause of a filter: name contains (literally), status/industry/owner equal, creation between two local days. */
export function filterWhere(filter: ProjectFilter): Where {
  const where: Where = {};
  if (filter.name) where.name = { like: likeText(filter.name) };
  if (filter.status !== undefined) where.status = filter.status;
  if (filter.industry) where.industry = filter.industry;
  if (filter.user) where.user = filter.user;
  if (filter.createTime) {
    const [from, to] = filter.createTime;
    where.createTime = {
      gte: dayjs(from).startOf('day').toISOString(),
      lt: dayjs(to).add(1, 'day').startOf('day').toISOString(),
    };
  }
  return where;
}

/** The administrator's scope selector (console.md §6): all, mine, tenant projects. */
export const PROJECT_SCOPES = ['all', 'mine', 'tenants'] as const;
export type ProjectScope = (typeof PROJECT_SCOPES)[number];

export function scopeWhere(scope: ProjectScope, ownId: string): Where {
  if (scope === 'mine') return { user: ownId };
  if (scope === 'tenants') return { user: { ne: ownId } };
  return {};
}

/** Both conditions: `and` when both say something, else whichever does. */
export function combineWhere(a: Where, b: Where): Where {
  const hasA = Object.keys(a).length > 0;
  const hasB = Object.keys(b).length > 0;
  if (hasA && hasB) return { and: [a, b] };
  return hasA ? a : b;
}

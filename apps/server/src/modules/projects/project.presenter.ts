import { advancedSchema, grantSchema, type ProjectView, projectView, viewGrant } from '@gantry/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, PgDialect } from 'drizzle-orm/pg-core';
import { projects, users } from '../../db/schema.js';
import { isoTime, jsonbView, jsonObject, jsonShape } from '../../lib/json-view.js';
import { usedMeasures, usedMeasuresSql } from '../licence/project-measures.js';
import type { ProjectWithOwner } from './project.repository.js';

const shapeGrant = jsonShape(grantSchema);
const shapeStats = jsonShape(projectView.shape._stats_);

/**
 * A project row (with its owner's name) as the API answers it; `today` dates the grant's remaining
 * time. Its documents are shaped by their schemas (`jsonShape`: unlisted keys dropped, defaults
 * filled), so the view is what zod's response check would answer (the property test holds it).
 */
export function projectViewOf(row: ProjectWithOwner, today: string): ProjectView {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    user: { id: row.userId, name: row.ownerName },
    createTime: row.createdAt.toISOString(),
    industry: row.industry,
    grant: row.grant ? viewGrant(shapeGrant(row.grant), today) : null,
    license: usedMeasures(row.usage, row.tables),
    licenseReportedAt: row.usageReportedAt?.toISOString() ?? null,
    _stats_: shapeStats(row.stats),
    online: row.online,
    hasSSO: row.hasSso,
    remarks: row.remarks,
    bgColor: row.bgColor,
    domain: row.domain,
    isUseDomain: row.isUseDomain,
    isUseHttps: row.isUseHttps,
    port: row.port,
    // Rows keep what was stored; defaults fill anything an older or hand-made row lacks.
    advanced: advancedSchema.parse(row.advanced ?? {}),
    projectType: row.projectType,
    type: row.templateId,
    planId: row.planId,
    logo: row.logo,
    extra: row.extra,
    certificate: row.certKey && row.certPem ? { key: row.certKey, pem: row.certPem } : null,
  };
}

/** `viewGrant` in SQL: the stored grant (its schema's keys) with the days left from `today` and the end date. */
function grantView(today: string): SQL {
  const grant = sql`${projects.grant}`;
  const start = sql`(${grant} ->> 'startTime')::date`;
  const end = sql`(${start} + (${grant} ->> 'validityPeriod')::int)`;
  // dateOfDay writes toISOString().slice(0, 10): past year 9999 that is '+0YYYYY-MM'.
  const endTime = sql`(case when ${end} < date '10000-01-01' then to_char(${end}, 'YYYY-MM-DD')
    else '+' || lpad(extract(year from ${end})::text, 6, '0') || '-' || to_char(${end}, 'MM') end)`;
  return sql`(case when jsonb_typeof(${grant}) = 'object' then ${jsonbView(grantSchema, grant)}
    || jsonb_build_object('remainingTime', greatest(0, ${end} - greatest(${today}::date, ${start})), 'endTime', ${endTime}) end)`;
}

/**
 * `projectViewOf` in SQL: the same answer built by the database from `projects` joined to the
 * owner (`users`), so the list's page is one JSON text the server passes on. Exactly the keys of
 * `projectView` (the type says so), in its order; JSON columns shaped by the schema's own field
 * schemas (`jsonbView`: unlisted keys dropped, defaults filled). `fields`: a projection (the id is
 * always kept). The property test `project.presenter.test.ts` holds the two presenters equal.
 */
export function projectViewSql(today: string, fields?: readonly string[]): SQL {
  const shape = projectView.shape;
  const columns: Record<keyof ProjectView, SQL | AnyPgColumn> = {
    id: projects.id,
    name: projects.name,
    status: projects.status,
    user: jsonObject([
      ['id', sql`${projects.userId}`],
      ['name', sql`${users.name}`],
    ]),
    createTime: isoTime(projects.createdAt),
    industry: projects.industry,
    grant: grantView(today),
    license: jsonbView(shape.license, usedMeasuresSql()),
    licenseReportedAt: isoTime(projects.usageReportedAt),
    _stats_: jsonbView(shape._stats_, sql`${projects.stats}`),
    online: projects.online,
    hasSSO: projects.hasSso,
    remarks: projects.remarks,
    bgColor: projects.bgColor,
    domain: projects.domain,
    isUseDomain: projects.isUseDomain,
    isUseHttps: projects.isUseHttps,
    port: projects.port,
    advanced: jsonbView(shape.advanced, sql`coalesce(${projects.advanced}, '{}'::jsonb)`),
    projectType: projects.projectType,
    type: projects.templateId,
    planId: projects.planId,
    logo: projects.logo,
    extra: jsonbView(shape.extra, sql`${projects.extra}`),
    certificate: sql`(case when ${projects.certKey} <> '' and ${projects.certPem} <> ''
      then ${jsonObject([
        ['key', sql`${projects.certKey}`],
        ['pem', sql`${projects.certPem}`],
      ])} end)`,
  };
  const isViewKey = (key: string): key is keyof ProjectView => Object.hasOwn(columns, key);
  const keys = Object.keys(shape)
    .filter(isViewKey)
    .filter((key) => !fields || key === 'id' || fields.includes(key));
  return jsonObject(keys.map((key) => [key, sql`${columns[key]}`] as const));
}

const dialect = new PgDialect();
const rendered = new Map<string, SQL>();
const RENDERED_MAX = 64;

/**
 * `projectViewSql` as SQL text, rendered once per day and projection: drizzle takes about a
 * millisecond to walk the view's few hundred fragments, more than the rest of a list request's
 * statement. Its values are our own (the day, checked to be a date, and the schemas' defaults),
 * inlined as literals.
 */
export function renderedProjectView(today: string, fields?: readonly string[]): SQL {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`not a date: ${today}`);
  const key = `${today}|${fields?.join(',') ?? '*'}`;
  let view = rendered.get(key);
  if (!view) {
    if (rendered.size >= RENDERED_MAX) rendered.clear();
    view = sql.raw(dialect.sqlToQuery(projectViewSql(today, fields).inlineParams()).sql);
    rendered.set(key, view);
  }
  return view;
}

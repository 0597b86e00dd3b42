import { ADMIN_USER_ID, type Grant, MEASURE_PATHS, type MeasureValues } from '@gantry/shared';
import { and, eq, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database.js';
import { licences, platformIdentity, projects, users } from '../../db/schema.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import { usedMeasuresSql } from './project-measures.js';

export const PLATFORM_LICENCE_ID = 'platform-spm';

/** The installed platform licence: its grant and the signed file it came from (null: none kept). */
export interface PlatformRecord {
  grant: Grant;
  text: string | null;
  installedAt: Date;
}

/** `sum(<jsonb> #>> '{a,b}')` for every measure, in one row. */
function sumsOf(column: AnyPgColumn | SQL) {
  return Object.fromEntries(
    MEASURE_PATHS.map((path) => [
      path,
      sql<string | null>`sum((${column} #>> ${`{${path.replace('.', ',')}}`})::bigint)`,
    ]),
  );
}

function toMeasures(row: Record<string, string | null> | undefined): MeasureValues {
  const values: MeasureValues = {};
  if (!row) return values;
  for (const path of MEASURE_PATHS) {
    const value = row[path];
    if (value !== null && value !== undefined) values[path] = Number(value);
  }
  return values;
}

function addMeasures(a: MeasureValues, b: MeasureValues): MeasureValues {
  const total: MeasureValues = { ...a };
  for (const path of MEASURE_PATHS) {
    const value = b[path];
    if (value !== undefined) total[path] = (total[path] ?? 0) + value;
  }
  return total;
}

/** Grants at the three levels, and the sums the allocation rules compare against (all SQL). */
export class LicenceRepository {
  /** `bus`: where an installed licence is announced (in its transaction), so every process's cached copy is dropped. */
  constructor(
    private readonly db: Database,
    private readonly bus?: InvalidationBus,
  ) {}

  /** The platform's identity (made with the database; GANTRY_LICENCE_BINDING=platform binds licences to it). */
  async platformId(): Promise<string> {
    const read = async () => (await this.db.select({ id: platformIdentity.id }).from(platformIdentity))[0]?.id;
    const found = await read();
    if (found) return found;
    // Restored from a platform backup made before the identity existed: a new one, once.
    await this.db.insert(platformIdentity).values({}).onConflictDoNothing();
    const made = await read();
    if (!made) throw new Error('platform_identity has no row');
    return made;
  }

  async platform(db: Database = this.db, lock = false): Promise<PlatformRecord | undefined> {
    const query = db
      .select({ grant: licences.grant, document: licences.document, installedAt: licences.installedAt })
      .from(licences)
      .where(eq(licences.id, PLATFORM_LICENCE_ID));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) return undefined;
    const text = row.document?.text;
    return {
      grant: row.grant,
      text: typeof text === 'string' ? text : null,
      installedAt: row.installedAt,
    };
  }

  /** Installs (or replaces) the platform licence: its grant and the signed file's exact text. */
  async install(grant: Grant, text: string, db: Database = this.db, at?: Date): Promise<void> {
    const values = { grant, document: { text }, installedAt: at ?? new Date() };
    await db
      .insert(licences)
      .values({ id: PLATFORM_LICENCE_ID, ...values })
      .onConflictDoUpdate({ target: licences.id, set: values });
    await this.bus?.publish({ kind: 'licence' }, db);
  }

  /** A tenant's grant; with `lock`, its row stays locked for the rest of the transaction. */
  async tenantGrant(
    db: Database,
    tenantId: string,
    lock: boolean,
  ): Promise<{ grant: Grant | null; status: boolean } | undefined> {
    const query = db
      .select({ grant: users.grant, status: users.status })
      .from(users)
      .where(and(eq(users.id, tenantId), eq(users.isAdmin, false)));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  /** The grants of an owner's projects. */
  async projectGrants(db: Database, ownerId: string): Promise<Grant[]> {
    const rows = await db
      .select({ grant: projects.grant })
      .from(projects)
      .where(and(eq(projects.userId, ownerId), isNotNull(projects.grant)));
    return rows.flatMap((r) => (r.grant ? [r.grant] : []));
  }

  /** What the platform has handed out: every tenant's grant and every platform project's. */
  async allocatedByPlatform(db: Database, except: { tenant?: string; project?: string } = {}): Promise<MeasureValues> {
    const tenantWhere = [eq(users.isAdmin, false), isNotNull(users.grant)];
    if (except.tenant) tenantWhere.push(ne(users.id, except.tenant));
    const [tenants] = await db
      .select(sumsOf(users.grant))
      .from(users)
      .where(and(...tenantWhere));
    const platformProjects = await this.allocatedByTenant(db, ADMIN_USER_ID, except.project);
    return addMeasures(toMeasures(tenants), platformProjects);
  }

  /** What an owner (a tenant, or 'admin' for platform projects) has handed to its projects. */
  async allocatedByTenant(db: Database, ownerId: string, exceptProject?: string): Promise<MeasureValues> {
    const where = [eq(projects.userId, ownerId), isNotNull(projects.grant)];
    if (exceptProject) where.push(ne(projects.id, exceptProject));
    const [row] = await db
      .select(sumsOf(projects.grant))
      .from(projects)
      .where(and(...where));
    return toMeasures(row);
  }

  /** What projects use (`project-measures.ts`: counted tables, the rest reported), over all projects or one owner's. */
  async used(ownerId?: string): Promise<MeasureValues> {
    const [row] = await this.db
      .select(sumsOf(usedMeasuresSql()))
      .from(projects)
      .where(ownerId ? eq(projects.userId, ownerId) : undefined);
    return toMeasures(row);
  }
}

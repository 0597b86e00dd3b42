import { advancedSchema, type Grant, type ProjectAdvanced } from '@gantry/shared';
import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.js';
import { projectDocuments, projects, siteSessions, siteSsoCodes, users } from '../../db/schema.js';

/** What the sites need to know of a project: its state, its grant and where it is served. */
export interface SiteProject {
  id: string;
  name: string;
  ownerId: string;
  projectOn: boolean;
  ownerOn: boolean;
  grant: Grant | null;
  hasSso: boolean;
  port: number | null;
  domainKey: string | null;
  isUseDomain: boolean;
  isUseHttps: boolean;
  certKey: string | null;
  certPem: string | null;
  advanced: ProjectAdvanced;
}

export interface SiteSessionRow {
  projectId: string;
  kind: 'user' | 'owner';
  subject: string;
  expiresAt: Date;
}

/** A document of a project's `user` or `role` collection. */
export interface ProjectDocument {
  id: string;
  doc: Record<string, unknown>;
  createTime: Date;
  updateTime: Date;
}

/** The columns of a ProjectDocument. */
const DOCUMENT_COLUMNS = {
  id: projectDocuments.id,
  doc: projectDocuments.doc,
  createTime: projectDocuments.createTime,
  updateTime: projectDocuments.updateTime,
};

const PROJECT_COLUMNS = {
  id: projects.id,
  name: projects.name,
  ownerId: projects.userId,
  projectOn: projects.status,
  ownerOn: users.status,
  grant: projects.grant,
  hasSso: projects.hasSso,
  port: projects.port,
  domainKey: projects.domainKey,
  isUseDomain: projects.isUseDomain,
  isUseHttps: projects.isUseHttps,
  certKey: projects.certKey,
  certPem: projects.certPem,
  advanced: projects.advanced,
};

type ProjectSelect = Omit<SiteProject, 'advanced'> & { advanced: Partial<ProjectAdvanced> };

function siteProject(row: ProjectSelect): SiteProject {
  const advanced = advancedSchema.safeParse(row.advanced);
  return {
    ...row,
    advanced: advanced.success
      ? advanced.data
      : { mediaLibraryPublicDirEnable: false, mediaLibraryPublicDirFeature: [] },
  };
}

/** All SQL of the project sites: projects as sites, site sessions, sign-on codes, project users and roles. */
export class SiteRepository {
  constructor(private readonly db: Database) {}

  async project(projectId: string, db: Database = this.db): Promise<SiteProject | undefined> {
    const [row] = await db
      .select(PROJECT_COLUMNS)
      .from(projects)
      .innerJoin(users, eq(users.id, projects.userId))
      .where(eq(projects.id, projectId))
      .limit(1);
    return row && siteProject(row);
  }

  /** Projects served on a port or by a domain (listeners and the Host map at start). */
  async served(): Promise<SiteProject[]> {
    const rows = await this.db
      .select(PROJECT_COLUMNS)
      .from(projects)
      .innerJoin(users, eq(users.id, projects.userId))
      .where(sql`${projects.port} IS NOT NULL OR (${projects.isUseDomain} AND ${projects.domainKey} IS NOT NULL)`);
    return rows.map(siteProject);
  }

  /** Takes the project's row lock: user creations and enablings of one project queue (the userCount check). */
  async lockProject(tx: Database, projectId: string): Promise<void> {
    await queryRows(tx, sql`SELECT id FROM projects WHERE id = ${projectId} FOR UPDATE`);
  }

  // Sessions.

  async createSession(row: SiteSessionRow & { tokenHash: string; ip: string }): Promise<void> {
    await this.db.insert(siteSessions).values(row);
  }

  async session(tokenHash: string, now: Date): Promise<SiteSessionRow | undefined> {
    const [row] = await this.db
      .select({
        projectId: siteSessions.projectId,
        kind: siteSessions.kind,
        subject: siteSessions.subject,
        expiresAt: siteSessions.expiresAt,
      })
      .from(siteSessions)
      .where(
        and(eq(siteSessions.tokenHash, tokenHash), sql`${siteSessions.expiresAt} > ${now.toISOString()}::timestamptz`),
      )
      .limit(1);
    return row;
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.delete(siteSessions).where(eq(siteSessions.tokenHash, tokenHash));
  }

  async deleteSessionsOf(projectId: string, kind: 'user' | 'owner', subject: string, db: Database = this.db) {
    await db
      .delete(siteSessions)
      .where(
        and(eq(siteSessions.projectId, projectId), eq(siteSessions.kind, kind), eq(siteSessions.subject, subject)),
      );
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.delete(siteSessions).where(lte(siteSessions.expiresAt, now));
    await this.db.delete(siteSsoCodes).where(lte(siteSsoCodes.expiresAt, now));
  }

  // Single sign-on codes.

  async createCode(row: { codeHash: string; projectId: string; userId: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(siteSsoCodes).values(row);
  }

  /** Takes a code (deleted whatever happens next: single use). */
  async takeCode(codeHash: string): Promise<{ projectId: string; userId: string; expiresAt: Date } | undefined> {
    const [row] = await this.db
      .delete(siteSsoCodes)
      .where(eq(siteSsoCodes.codeHash, codeHash))
      .returning({ projectId: siteSsoCodes.projectId, userId: siteSsoCodes.userId, expiresAt: siteSsoCodes.expiresAt });
    return row;
  }

  // Project users and roles (the project's `user` and `role` collections).

  private scope(projectId: string, collection: 'user' | 'role') {
    return and(eq(projectDocuments.projectId, projectId), eq(projectDocuments.collection, collection));
  }

  async documents(projectId: string, collection: 'user' | 'role', limit: number): Promise<ProjectDocument[]> {
    return this.db
      .select(DOCUMENT_COLUMNS)
      .from(projectDocuments)
      .where(this.scope(projectId, collection))
      .orderBy(projectDocuments.createTime, projectDocuments.id)
      .limit(limit);
  }

  async document(
    projectId: string,
    collection: 'user' | 'role',
    id: string,
    db: Database = this.db,
  ): Promise<ProjectDocument | undefined> {
    const [row] = await db
      .select(DOCUMENT_COLUMNS)
      .from(projectDocuments)
      .where(and(this.scope(projectId, collection), eq(projectDocuments.id, id)))
      .limit(1);
    return row;
  }

  /** The project user whose `username` is this one (names are unique within a project). */
  async userByName(projectId: string, username: string, db: Database = this.db): Promise<ProjectDocument | undefined> {
    const [row] = await db
      .select(DOCUMENT_COLUMNS)
      .from(projectDocuments)
      .where(and(this.scope(projectId, 'user'), sql`${projectDocuments.doc}->>'username' = ${username}`))
      .limit(1);
    return row;
  }

  /** Enabled project users (a user is enabled unless its `status` is false). */
  async enabledUsers(projectId: string, db: Database): Promise<number> {
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(projectDocuments)
      .where(
        and(
          this.scope(projectId, 'user'),
          sql`coalesce(${projectDocuments.doc}->'status', 'true'::jsonb) <> 'false'::jsonb`,
        ),
      );
    return Number(row?.count ?? 0);
  }

  /** Users given a role. */
  async usersWithRole(projectId: string, roleId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(projectDocuments)
      .where(
        and(this.scope(projectId, 'user'), sql`${projectDocuments.doc}->'roles' @> ${JSON.stringify([roleId])}::jsonb`),
      );
    return Number(row?.count ?? 0);
  }

  async insertDocument(
    db: Database,
    projectId: string,
    collection: 'user' | 'role',
    id: string,
    doc: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    await db.insert(projectDocuments).values({ projectId, collection, id, doc, createTime: now, updateTime: now });
  }

  async replaceDocument(
    db: Database,
    projectId: string,
    collection: 'user' | 'role',
    id: string,
    doc: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    await db
      .update(projectDocuments)
      .set({ doc, updateTime: now })
      .where(and(this.scope(projectId, collection), eq(projectDocuments.id, id)));
  }

  async deleteDocument(projectId: string, collection: 'user' | 'role', id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(projectDocuments)
      .where(and(this.scope(projectId, collection), eq(projectDocuments.id, id)))
      .returning({ id: projectDocuments.id });
    return deleted.length > 0;
  }

  /** Whether a console account exists and is enabled (an owner session's subject). */
  async consoleUser(userId: string) {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.id, userId), eq(users.status, true), isNotNull(users.passwordHash)))
      .limit(1);
    return row;
  }
}

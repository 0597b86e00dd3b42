import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows } from '../db/database.js';
import type { TestApp } from './test-app.js';

type Row = Record<string, unknown> & { id: string };

/** Everything an API call could change, read straight from the database and the data directory. */
export interface World {
  users: Row[];
  projects: Row[];
  licences: Row[];
  licenceHistory: Row[];
  /** `userId:tokenHash` of every session. */
  sessions: string[];
  auditCount: number;
  /** Files under the projects area, relative to it. */
  files: string[];
}

/** One round trip: every row of the platform tables as JSON, in id order. */
export async function readWorld(app: TestApp): Promise<World> {
  const [row] = await queryRows<Omit<World, 'files'>>(
    app.database.db,
    sql`select
      (select coalesce(jsonb_agg(to_jsonb(u) order by u.id), '[]'::jsonb) from users u) as users,
      (select coalesce(jsonb_agg(to_jsonb(p) order by p.id), '[]'::jsonb) from projects p) as projects,
      (select coalesce(jsonb_agg(to_jsonb(l) order by l.id), '[]'::jsonb) from licences l) as licences,
      (select coalesce(jsonb_agg(to_jsonb(h) order by h.id), '[]'::jsonb) from licence_history h) as "licenceHistory",
      (select coalesce(jsonb_agg(s.user_id || ':' || s.token_hash order by s.token_hash), '[]'::jsonb) from sessions s) as sessions,
      (select count(*)::int from audit_log) as "auditCount"`,
  );
  if (!row) throw new Error('no world');
  return { ...row, files: projectFiles(app) };
}

function projectFiles(app: TestApp): string[] {
  const root = path.join(app.dataDir, 'projects');
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
      .sort();
  } catch {
    return [];
  }
}

/**
 * The world without what an allowed change may touch: the target object (its row, its sessions, its
 * files) and, when the call creates something, rows that did not exist before. Audit entries may be added.
 */
export function worldBesides(world: World, options: { target?: string; keep?: World; auditCount?: number }): World {
  const { target, keep } = options;
  const existed = (rows: Row[], id: string) => !keep || rows.some((r) => r.id === id);
  return {
    users: world.users.filter((u) => u.id !== target && existed(keep?.users ?? [], u.id)),
    projects: world.projects.filter((p) => p.id !== target && existed(keep?.projects ?? [], p.id)),
    licences: world.licences,
    licenceHistory: world.licenceHistory,
    sessions: world.sessions.filter((s) => !target || !s.startsWith(`${target}:`)),
    auditCount: options.auditCount ?? world.auditCount,
    files: world.files.filter((f) => !target || !f.startsWith(`${target}${path.sep}`)),
  };
}

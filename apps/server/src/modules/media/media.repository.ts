import { advancedSchema, type ProjectAdvanced } from '@gantry/shared';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { projects, users } from '../../db/schema.js';

export interface MediaProject {
  ownerId: string;
  /** The project and its tenant are both enabled (writes allowed). */
  enabled: boolean;
  advanced: ProjectAdvanced;
}

/** The one row the media library needs about a project: who owns it, whether it is on, its public-folder options. */
export class MediaRepository {
  constructor(private readonly db: Database) {}

  async project(projectId: string): Promise<MediaProject | undefined> {
    const [row] = await this.db
      .select({
        ownerId: projects.userId,
        projectOn: projects.status,
        ownerOn: users.status,
        advanced: projects.advanced,
      })
      .from(projects)
      .innerJoin(users, eq(users.id, projects.userId))
      .where(eq(projects.id, projectId))
      .limit(1);
    if (!row) return undefined;
    const advanced = advancedSchema.safeParse(row.advanced);
    return {
      ownerId: row.ownerId,
      enabled: row.projectOn && row.ownerOn,
      advanced: advanced.success
        ? advanced.data
        : { mediaLibraryPublicDirEnable: false, mediaLibraryPublicDirFeature: [] },
    };
  }
}

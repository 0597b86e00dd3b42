import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { BACKUP_ARCHIVE } from '@gantry/shared';
import { ArchiveWriter } from '../../lib/archive/archive-writer.js';
import type { FileStore } from '../../lib/file-store.js';
import type { ManifestHead } from '../backups/backup-archive.js';
import { APP_VERSION } from '../backups/backup-export.js';
import { BackupFiles } from '../backups/backup-files.js';
import type { PackageContent } from './template-builtins.js';

/** One buffer as the byte source the archive writer reads. */
async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

/**
 * Where template packages live: `<data>/templates/<file>`, or the store's area `templates` with
 * object storage (`shelf`); written and read as backup archives are (the project id is unused).
 */
export class TemplateFiles extends BackupFiles {
  constructor(
    private readonly root: string,
    shelf?: FileStore,
  ) {
    super(root, shelf);
  }
  override folder(): string {
    return path.join(this.root, 'templates');
  }
  override area(): string {
    return 'templates';
  }
}

/**
 * Writes a template package from documents and files held in memory (the built-in templates): the
 * same archive as a project backup (backup-archive.ts), so it is read, verified and installed by the
 * restore's own code. Written under a partial name and kept as `file` when complete.
 */
export async function writePackage(
  files: TemplateFiles,
  file: string,
  content: PackageContent,
  project: { id: string; name: string },
  at: Date,
): Promise<{ bytes: number; modules: Record<string, number> }> {
  await mkdir(files.folder(), { recursive: true });
  const partial = files.partial('', `${project.id}-${process.pid}-${Date.now()}`);
  const writer = await ArchiveWriter.create<ManifestHead>(partial);
  try {
    const byModule = new Map<string, string[]>();
    const stamp = at.toISOString();
    for (const document of content.documents) {
      const lines = byModule.get(document.collection) ?? [];
      lines.push(`${JSON.stringify({ id: document.id, createTime: stamp, updateTime: stamp, doc: document.doc })}\n`);
      byModule.set(document.collection, lines);
    }
    for (const item of content.files) {
      await writer.add(`${item.kind}/${item.path}`, once(item.bytes), {
        lastModified: at,
        expectedSize: item.bytes.length,
      });
    }
    const modules: Record<string, number> = {};
    for (const [module, lines] of byModule) {
      const bytes = Buffer.from(lines.join(''));
      await writer.add(`${BACKUP_ARCHIVE.modulesDir}/${module}.jsonl`, once(bytes), {
        lastModified: at,
        expectedSize: bytes.length,
      });
      modules[module] = lines.length;
    }
    const bytes = await writer.finish({
      format: BACKUP_ARCHIVE.format,
      version: BACKUP_ARCHIVE.version,
      project,
      createTime: stamp,
      appVersion: APP_VERSION,
      item: {
        fileServer: content.files.some((item) => item.kind === 'fileServer'),
        html: content.files.some((item) => item.kind === 'html'),
        mongodb: byModule.size > 0,
      },
      excludedDirs: [],
      modules: Object.fromEntries(Object.entries(modules).map(([module, documents]) => [module, { documents }])),
    });
    await files.keep('', partial, file);
    return { bytes, modules };
  } catch (error) {
    await writer.abort().catch(() => {});
    await rm(partial, { force: true });
    throw error;
  }
}

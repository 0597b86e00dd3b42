import type { Config } from '../config.js';
import { DiskFileStore, type FileStore } from './file-store.js';

/**
 * The store of project files the configuration names: the data directory, or object storage
 * (issue 35). The AWS SDK takes 0.3 s to load, so only a node that uses object storage loads it.
 */
export async function openFileStore(config: Pick<Config, 's3' | 'dataDir'>): Promise<FileStore> {
  if (!config.s3) return new DiskFileStore(config.dataDir);
  const { S3FileStore, s3LocationOf } = await import('./s3-file-store.js');
  return new S3FileStore(s3LocationOf(config.s3));
}

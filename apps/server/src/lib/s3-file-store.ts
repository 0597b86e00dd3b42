import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { MEDIA_TEMP_PREFIX } from '@gantry/shared';
import type { S3Settings } from '../config.js';
import type { AreaEntry, FileInfo, FileStore, TreeAnswer, TreeNode } from './file-store.js';
import { FileStoreError } from './file-store.js';
import { inPool } from './in-pool.js';
import { uploadObject } from './s3-upload.js';

/** The most keys one DeleteObjects call takes (S3's own limit). */
const DELETE_BATCH = 1000;
/** Objects copied at once when a folder or an area moves. */
const COPIES_AT_ONCE = 4;

export interface S3Location {
  client: S3Client;
  bucket: string;
  /** Every key starts with it (empty, or folder names each ending in `/`). */
  prefix: string;
}

/** The client and bucket the configuration names (credentials: given ones, else the SDK's own chain). */
export function s3LocationOf(settings: S3Settings): S3Location {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  });
  return { client, bucket: settings.bucket, prefix: settings.prefix };
}

interface Level {
  /** The folder's own marker object (`dir/`), when it has one. */
  marker: Date | undefined;
  dirs: string[];
  files: Array<{ name: string; size: number; updateTime: Date }>;
}

const missing = (error: unknown) => {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const name = (error as { name?: string }).name;
  return status === 404 || name === 'NotFound' || name === 'NoSuchKey';
};

function checkSegments(segments: string[]): void {
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..' || segment.includes('/') || segment.includes('\\')) {
      throw new Error(`Unchecked path segment: ${JSON.stringify(segment)}`);
    }
  }
}

/** Re-cuts a stream into blocks of `size` bytes (the last one shorter). */
async function* blocks(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of source) {
    pending.push(chunk);
    pendingBytes += chunk.length;
    while (pendingBytes >= size) {
      const all = Buffer.concat(pending, pendingBytes);
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      pendingBytes -= size;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

/**
 * S3-compatible object storage (issue 35): an area is the key prefix `<prefix><area>/`, a file one
 * object, a folder the prefix of what it holds plus an empty marker object `<folder>/` so that an
 * empty one exists too. A file appears only when complete (a PUT, or a multipart upload's
 * completion, is atomic); moves are copies then deletes (docs/DECISIONS.md, "Object storage").
 */
export class S3FileStore implements FileStore {
  constructor(private readonly s3: S3Location) {}

  /** `<prefix><area>/`; areas are built by the server, checked like segments all the same. */
  private areaKey(area: string): string {
    const parts = area.split('/');
    if (parts.some((part) => part === '' || part === '.' || part === '..' || part.includes('\\'))) {
      throw new Error(`Area escapes the data directory: ${area}`);
    }
    return `${this.s3.prefix}${area}/`;
  }

  private key(area: string, segments: string[]): string {
    checkSegments(segments);
    return this.areaKey(area) + segments.join('/');
  }

  /** The prefix of a folder's content: the area's own key for its root. */
  private folderKey(area: string, segments: string[]): string {
    return segments.length === 0 ? this.areaKey(area) : `${this.key(area, segments)}/`;
  }

  private async list(prefix: string, options: { delimiter?: boolean; token?: string | undefined; max?: number }) {
    return this.s3.client.send(
      new ListObjectsV2Command({
        Bucket: this.s3.bucket,
        Prefix: prefix,
        ...(options.delimiter ? { Delimiter: '/' } : {}),
        ...(options.token ? { ContinuationToken: options.token } : {}),
        ...(options.max ? { MaxKeys: options.max } : {}),
      }),
    );
  }

  /** Every object under `prefix`, page by page. */
  private async *objects(prefix: string): AsyncGenerator<NonNullable<ListObjectsV2CommandOutput['Contents']>> {
    let token: string | undefined;
    do {
      const page = await this.list(prefix, { token });
      yield page.Contents ?? [];
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** One folder's direct content, like readdir; more than `limit` entries → 'tooLarge'. */
  private async level(prefix: string, limit: number, segments: string[]): Promise<Level> {
    const answer: Level = { marker: undefined, dirs: [], files: [] };
    let token: string | undefined;
    do {
      const page = await this.list(prefix, { delimiter: true, token });
      for (const common of page.CommonPrefixes ?? []) {
        const name = (common.Prefix ?? '').slice(prefix.length, -1);
        if (name) answer.dirs.push(name);
      }
      for (const object of page.Contents ?? []) {
        const name = (object.Key ?? '').slice(prefix.length);
        const updateTime = object.LastModified ?? new Date(0);
        if (name === '') answer.marker = updateTime;
        else if (!name.startsWith(MEDIA_TEMP_PREFIX)) answer.files.push({ name, size: object.Size ?? 0, updateTime });
      }
      if (answer.dirs.length + answer.files.length > limit) throw new FileStoreError('tooLarge', segments);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    answer.dirs.sort(byName);
    answer.files.sort((a, b) => byName(a.name, b.name));
    return answer;
  }

  private async hasPrefix(prefix: string): Promise<boolean> {
    return ((await this.list(prefix, { max: 1 })).KeyCount ?? 0) > 0;
  }

  private async head(key: string): Promise<FileInfo | undefined> {
    try {
      const head = await this.s3.client.send(new HeadObjectCommand({ Bucket: this.s3.bucket, Key: key }));
      return { type: 'file', size: head.ContentLength ?? 0, updateTime: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  async stat(area: string, segments: string[]): Promise<FileInfo | undefined> {
    if (segments.length === 0) {
      return (await this.hasArea(area)) ? { type: 'dir', size: 0, updateTime: new Date(0) } : undefined;
    }
    const key = this.key(area, segments);
    const [file, folder] = await Promise.all([this.head(key), this.list(`${key}/`, { max: 1 })]);
    if (file) return file;
    const first = folder.Contents?.[0];
    return first ? { type: 'dir', size: 0, updateTime: first.LastModified ?? new Date(0) } : undefined;
  }

  /** `segments` must be a folder (the area's root always is). */
  private async requireFolder(area: string, segments: string[]): Promise<void> {
    if (segments.length === 0) return;
    const info = await this.stat(area, segments);
    if (!info) throw new FileStoreError('notFound', segments);
    if (info.type !== 'dir') throw new FileStoreError('notFolder', segments);
  }

  /** An empty marker object: the folder stays when its last file goes. */
  private async putMarker(area: string, segments: string[]): Promise<void> {
    if (segments.length === 0) return;
    await this.s3.client.send(
      new PutObjectCommand({ Bucket: this.s3.bucket, Key: this.folderKey(area, segments), Body: '', ContentLength: 0 }),
    );
  }

  async tree(area: string, dir: string[], options: { files: boolean; maxNodes: number }): Promise<TreeAnswer> {
    if (dir.length > 0) await this.requireFolder(area, dir);
    let count = 0;
    let truncated = false;
    const walk = async (segments: string[]): Promise<TreeNode[]> => {
      const level = await this.level(this.folderKey(area, segments), Number.MAX_SAFE_INTEGER, segments);
      const nodes: TreeNode[] = [];
      const entries = [
        ...level.dirs.map((name) => ({ name, file: undefined })),
        ...(options.files ? level.files.map((file) => ({ name: file.name, file })) : []),
      ];
      for (const entry of entries) {
        if (count >= options.maxNodes) {
          truncated = true;
          break;
        }
        count++;
        const child = [...segments, entry.name];
        const nodePath = child.join('/');
        if (entry.file) {
          nodes.push({
            path: nodePath,
            name: entry.name,
            type: 'file',
            size: entry.file.size,
            updateTime: entry.file.updateTime.toISOString(),
          });
        } else {
          nodes.push({ path: nodePath, name: entry.name, type: 'dir', child: await walk(child) });
        }
      }
      return nodes;
    };
    return { nodes: await walk(dir), truncated };
  }

  async write(
    area: string,
    segments: string[],
    source: Readable,
    options: { maxBytes: number; overwrite: boolean },
  ): Promise<{ size: number }> {
    const key = this.key(area, segments);
    await this.requireFolder(area, segments.slice(0, -1));
    const existing = await this.stat(area, segments);
    if (existing && (existing.type === 'dir' || !options.overwrite)) throw new FileStoreError('exists', segments);
    // Counted as it goes: past the limit the upload is aborted and nothing appears.
    try {
      const size = await uploadObject(this.s3, key, source, (bytes) => {
        if (bytes > options.maxBytes) throw new FileStoreError('tooLarge', segments);
      });
      return { size };
    } catch (error) {
      source.destroy();
      throw error;
    }
  }

  private async get(area: string, segments: string[]) {
    const key = this.key(area, segments);
    try {
      return await this.s3.client.send(new GetObjectCommand({ Bucket: this.s3.bucket, Key: key }));
    } catch (error) {
      if (!missing(error)) throw error;
      const info = await this.stat(area, segments);
      throw new FileStoreError(info ? 'notFile' : 'notFound', segments);
    }
  }

  private static bodyOf(answer: { Body?: unknown }): Readable {
    if (!(answer.Body instanceof Readable)) throw new Error('The S3 client answered without a stream');
    return answer.Body;
  }

  async read(
    area: string,
    segments: string[],
    options: { chunkBytes?: number } = {},
  ): Promise<{ stream: Readable; size: number; updateTime: Date }> {
    const answer = await this.get(area, segments);
    const body = S3FileStore.bodyOf(answer);
    return {
      stream: options.chunkBytes ? Readable.from(blocks(body, options.chunkBytes), { objectMode: false }) : body,
      size: answer.ContentLength ?? 0,
      updateTime: answer.LastModified ?? new Date(0),
    };
  }

  async readWhole(area: string, segments: string[], maxBytes: number): Promise<{ bytes: Buffer; updateTime: Date }> {
    const answer = await this.get(area, segments);
    const body = S3FileStore.bodyOf(answer);
    if ((answer.ContentLength ?? 0) > maxBytes) {
      body.destroy();
      throw new FileStoreError('tooLarge', segments);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new FileStoreError('tooLarge', segments);
      chunks.push(chunk as Buffer);
    }
    return { bytes: Buffer.concat(chunks, size), updateTime: answer.LastModified ?? new Date(0) };
  }

  async mkdir(area: string, segments: string[]): Promise<void> {
    if (await this.stat(area, segments)) throw new FileStoreError('exists', segments);
    if (segments.length === 0) {
      await this.s3.client.send(
        new PutObjectCommand({ Bucket: this.s3.bucket, Key: this.areaKey(area), Body: '', ContentLength: 0 }),
      );
      return;
    }
    for (let i = 1; i <= segments.length; i++) {
      const part = segments.slice(0, i);
      const found = i < segments.length ? await this.stat(area, part) : undefined;
      if (found?.type === 'file') throw new FileStoreError('notFolder', part);
      if (!found) await this.putMarker(area, part);
    }
  }

  async move(area: string, from: string[], to: string[]): Promise<void> {
    const source = await this.stat(area, from);
    if (!source) throw new FileStoreError('notFound', from);
    await this.requireFolder(area, to.slice(0, -1));
    if (await this.stat(area, to)) throw new FileStoreError('exists', to);
    if (source.type === 'dir' && to.length > from.length && from.every((name, i) => to[i] === name)) {
      throw new FileStoreError('notFolder', to);
    }
    // The parent keeps existing when the last thing in it moves away.
    await this.putMarker(area, from.slice(0, -1));
    if (source.type === 'file') {
      await this.copy(this.key(area, from), this.key(area, to));
      await this.s3.client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: this.key(area, from) }));
      return;
    }
    await this.moveTree(this.folderKey(area, from), this.folderKey(area, to));
  }

  private async copy(from: string, to: string): Promise<void> {
    const source = `${this.s3.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await this.s3.client.send(new CopyObjectCommand({ Bucket: this.s3.bucket, Key: to, CopySource: source }));
  }

  /** Every object under `from` copied under `to`, then (only when all are copied) the originals deleted. */
  private async moveTree(from: string, to: string): Promise<void> {
    for await (const page of this.objects(from)) {
      await inPool(page, COPIES_AT_ONCE, async (object) => {
        const key = object.Key as string;
        await this.copy(key, to + key.slice(from.length));
      });
    }
    await this.removeTree(from);
  }

  /** Deletes every object under `prefix`, a thousand per call. */
  private async removeTree(prefix: string): Promise<void> {
    for (;;) {
      // Listed afresh each time: what was just deleted is gone, so no continuation token is needed.
      const page = await this.list(prefix, { max: DELETE_BATCH });
      const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key as string }));
      if (keys.length === 0) return;
      const answer = await this.s3.client.send(
        new DeleteObjectsCommand({ Bucket: this.s3.bucket, Delete: { Objects: keys, Quiet: true } }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0) {
        throw new Error(`Object storage refused to delete ${failed.length} objects: ${failed[0]?.Code ?? ''}`);
      }
    }
  }

  async remove(area: string, segments: string[]): Promise<void> {
    const info = await this.stat(area, segments);
    if (!info) throw new FileStoreError('notFound', segments);
    await this.putMarker(area, segments.slice(0, -1));
    if (info.type === 'file') {
      await this.s3.client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: this.key(area, segments) }));
    } else {
      await this.removeTree(this.folderKey(area, segments));
    }
  }

  async size(area: string, maxEntries: number): Promise<{ bytes: number; truncated: boolean }> {
    const prefix = this.areaKey(area);
    let bytes = 0;
    let entries = 0;
    for await (const page of this.objects(prefix)) {
      for (const object of page) {
        if (++entries > maxEntries) return { bytes, truncated: true };
        if (!(object.Key ?? '').endsWith('/')) bytes += object.Size ?? 0;
      }
    }
    return { bytes, truncated: false };
  }

  /**
   * Nothing to sweep: an upload in progress is no object at all, and one that failed is aborted by
   * the SDK. Parts of an upload whose server was killed are the bucket lifecycle rule's
   * (AbortIncompleteMultipartUpload), as the README says.
   */
  async sweep(): Promise<number> {
    return 0;
  }

  async areasUnder(parent: string, name: string): Promise<string[]> {
    return (await this.areas(parent)).map((dir) => `${parent}/${dir}/${name}`);
  }

  async areas(parent?: string): Promise<string[]> {
    const prefix = parent === undefined ? this.s3.prefix : this.areaKey(parent);
    return (await this.level(prefix, Number.MAX_SAFE_INTEGER, [])).dirs;
  }

  /**
   * A folder is given when its turn comes to be listed (its marker's time known then), so its files
   * come right after it: parents before children, as on disk.
   */
  async *entries(area: string, maxEntries: number): AsyncGenerator<AreaEntry> {
    let seen = 0;
    const pending: string[][] = [[]];
    while (pending.length > 0) {
      const segments = pending.shift() as string[];
      const level = await this.level(this.folderKey(area, segments), maxEntries - seen, segments);
      if (segments.length > 0) yield { segments, type: 'dir', size: 0, updateTime: level.marker ?? new Date(0) };
      for (const file of level.files) {
        if (++seen > maxEntries) throw new FileStoreError('tooLarge', segments);
        yield { segments: [...segments, file.name], type: 'file', size: file.size, updateTime: file.updateTime };
      }
      for (const dir of level.dirs) {
        if (++seen > maxEntries) throw new FileStoreError('tooLarge', segments);
        pending.push([...segments, dir]);
      }
    }
  }

  async hasArea(area: string): Promise<boolean> {
    return this.hasPrefix(this.areaKey(area));
  }

  async moveArea(from: string, to: string, options: { resume?: boolean } = {}): Promise<void> {
    if (!(await this.hasArea(from))) return;
    // Resumed: the objects copied before are copied again (the same bytes), then the originals go.
    if (!options.resume && (await this.hasArea(to))) throw new FileStoreError('exists', []);
    await this.moveTree(this.areaKey(from), this.areaKey(to));
  }

  async removeArea(area: string): Promise<void> {
    await this.removeTree(this.areaKey(area));
  }

  /** No rename to hide a tree at once in object storage: its objects are deleted, a thousand per call. */
  async discardArea(area: string): Promise<void> {
    await this.removeArea(area);
  }
}

/**
 * The floor of object storage (issue 35): the same transfers made with the AWS SDK alone, from this
 * bench's process to the same S3 server, as a script with the SDK would make them. Where the S3 server
 * shares the machine's cores (s3rver on loopback), a ratio to `cp` or `zip` says more about it than
 * about Gantry; a ratio to this floor says what Gantry adds. Uploads use the part size and parts in
 * flight of Gantry's own store (S3FileStore), so the request pattern is the same.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { inPool } from '../apps/server/src/lib/in-pool.js';
import { PART_BYTES, PARTS_AT_ONCE, type S3Location } from '../apps/server/src/lib/s3-file-store.js';

/** `body` uploaded as the object `key` (a multipart upload, as the store makes one); its size in bytes. */
export async function sdkUpload(s3: S3Location, key: string, body: Readable): Promise<number> {
  let size = 0;
  const counted = Readable.from(
    (async function* () {
      for await (const chunk of body) {
        size += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
    })(),
    { objectMode: false },
  );
  await new Upload({
    client: s3.client,
    params: { Bucket: s3.bucket, Key: key, Body: counted },
    partSize: PART_BYTES,
    queueSize: PARTS_AT_ONCE,
  }).done();
  return size;
}

/** The object `key` streamed into the file `target` (not fsync'd); its size in bytes. */
export async function sdkDownload(s3: S3Location, key: string, target: string): Promise<number> {
  const answer = await s3.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  if (!(answer.Body instanceof Readable)) throw new Error('The S3 client answered without a stream');
  let size = 0;
  await pipeline(
    answer.Body,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        size += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(target),
  );
  return size;
}

export async function sdkRemove(s3: S3Location, key: string): Promise<void> {
  await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
}

/**
 * Every object under `prefix` fetched into `folder` at its path below the prefix (folder markers,
 * keys ending in `/`, become folders), `atOnce` GetObjects in flight; files and bytes fetched.
 */
export async function sdkFetchTree(
  s3: S3Location,
  prefix: string,
  folder: string,
  atOnce: number,
): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  let token: string | undefined;
  do {
    const page = await s3.client.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
    );
    await inPool(page.Contents ?? [], atOnce, async (object) => {
      const relative = (object.Key ?? '').slice(prefix.length);
      const target = path.join(folder, relative);
      if (relative === '' || relative.endsWith('/')) {
        await mkdir(target, { recursive: true });
        return;
      }
      await mkdir(path.dirname(target), { recursive: true });
      bytes += await sdkDownload(s3, object.Key ?? '', target);
      files++;
    });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return { files, bytes };
}

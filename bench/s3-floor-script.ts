/**
 * The script of object storage's floor (bench/s3-floor.ts): the AWS SDK alone, in a process of its
 * own (a fresh heap, as a script run for the job has), against the S3 server its environment names
 * (GANTRY_S3_*, AWS_*: the server's own settings, read by its config into its own client). One job,
 * given as JSON in argv[2]; its timings printed as one JSON line. Not started by hand.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { loadConfig } from '../apps/server/src/config.js';
import { inPool } from '../apps/server/src/lib/in-pool.js';
import { type S3Location, s3LocationOf } from '../apps/server/src/lib/s3-file-store.js';
import { uploadObject } from '../apps/server/src/lib/s3-upload.js';
import type { FloorJob } from './s3-floor.js';

/** `body` uploaded as the object `key` by the store's own multipart upload (lib/s3-upload.ts); its size in bytes. */
const upload = (s3: S3Location, key: string, body: Readable): Promise<number> => uploadObject(s3, key, body);

/** The object `key` streamed into the file `target` (not fsync'd); its size in bytes. */
async function download(s3: S3Location, key: string, target: string): Promise<number> {
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

/** Every object under `prefix` into `folder` at its path below the prefix (keys ending in `/` become folders). */
async function fetchTree(s3: S3Location, prefix: string, folder: string, atOnce: number) {
  let files = 0;
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
      await download(s3, object.Key ?? '', target);
      files++;
    });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return files;
}

/** `zip -1 -r` of `folder` written to its standard output, streamed into an upload as `key`; the archive's bytes. */
async function zipInto(s3: S3Location, folder: string, key: string): Promise<number> {
  const zip = spawn('zip', ['-1', '-r', '-q', '-', '.'], { cwd: folder, stdio: ['ignore', 'pipe', 'inherit'] });
  const zipped = new Promise<void>((resolve, reject) =>
    zip.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`zip exited with ${code}`)))),
  );
  try {
    const [bytes] = await Promise.all([upload(s3, key, zip.stdout), zipped]);
    return bytes;
  } catch (error) {
    zip.kill();
    throw error;
  }
}

async function fsync(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  await handle.sync();
  await handle.close();
}

const since = (began: number) => performance.now() - began;

async function main(job: FloorJob): Promise<Record<string, number>> {
  const settings = loadConfig(process.env).s3;
  if (!settings) throw new Error('s3-floor-script: GANTRY_STORAGE=s3 and its settings are required');
  const s3 = s3LocationOf(settings);
  const key = `${settings.prefix}${job.name}`;
  try {
    if (job.kind === 'transfer') {
      let began = performance.now();
      const sent = await upload(s3, key, createReadStream(job.file));
      const uploadMs = since(began);
      began = performance.now();
      const got = await download(s3, key, job.target);
      await fsync(job.target);
      const downloadMs = since(began);
      await rm(job.target);
      return { uploadMs, downloadMs, sent, got };
    }
    const began = performance.now();
    const files = await fetchTree(s3, job.mediaPrefix, path.join(job.folder, job.filesDir), job.atOnce);
    const bytes = await zipInto(s3, job.folder, key);
    return { ms: since(began), files, bytes };
  } finally {
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    s3.client.destroy();
  }
}

process.stdout.write(`${JSON.stringify(await main(JSON.parse(process.argv[2] ?? '{}') as FloorJob))}\n`);

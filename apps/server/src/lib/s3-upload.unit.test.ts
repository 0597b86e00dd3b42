import { createHash } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3TestServer, startS3Server } from '../test/s3-server.js';
import type { S3Location } from './s3-file-store.js';
import { PART_BYTES, PARTS_AT_ONCE, uploadObject } from './s3-upload.js';

/**
 * The multipart upload with reused part buffers (lib/s3-upload.ts) against a real S3-compatible
 * server: a buffer filled again while its part was still being sent would store another part's bytes.
 */

/** `total` bytes in chunks of an odd size (parts never start on a chunk), each byte from its offset. */
async function* counted(total: number, onRead: (bytes: number) => unknown = () => {}) {
  const chunkBytes = 100_003;
  for (let offset = 0; offset < total; offset += chunkBytes) {
    const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, total - offset));
    for (let i = 0; i < chunk.length; i += 4096) chunk.fill((offset + i) % 253, i, Math.min(i + 4096, chunk.length));
    await onRead(offset + chunk.length);
    yield chunk;
  }
}
const sha256 = async (chunks: AsyncIterable<Buffer>) => {
  const hash = createHash('sha256');
  for await (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
};

describe('uploadObject', () => {
  let s3: S3TestServer;
  let location: S3Location;
  beforeAll(async () => {
    s3 = await startS3Server();
    location = s3.location('upload-test/');
  });
  afterAll(() => s3.stop());

  const stored = async (key: string) => {
    const answer = await location.client.send(new GetObjectCommand({ Bucket: location.bucket, Key: key }));
    if (!answer.Body) throw new Error('no body');
    return sha256(answer.Body as AsyncIterable<Buffer>);
  };
  const exists = (key: string) =>
    location.client.send(new HeadObjectCommand({ Bucket: location.bucket, Key: key })).then(
      () => true,
      () => false,
    );

  it('stores a file of many parts byte for byte, each part buffer reused', async () => {
    const bytes = Math.floor((PARTS_AT_ONCE + 3.5) * PART_BYTES);
    expect(await uploadObject(location, 'upload-test/many', counted(bytes))).toBe(bytes);
    expect(await stored('upload-test/many')).toBe(await sha256(counted(bytes)));
  });

  it('stores a small file and an empty one with one PUT each', async () => {
    expect(await uploadObject(location, 'upload-test/small', counted(12_345))).toBe(12_345);
    expect(await stored('upload-test/small')).toBe(await sha256(counted(12_345)));
    expect(await uploadObject(location, 'upload-test/empty', counted(0))).toBe(0);
    expect(await stored('upload-test/empty')).toBe(await sha256(counted(0)));
  });

  it('stores nothing when the source is refused midway, and reads no further', async () => {
    let read = 0;
    const refusal = new Error('over the limit');
    const upload = uploadObject(
      location,
      'upload-test/refused',
      counted(6 * PART_BYTES, (bytes) => {
        read = bytes;
      }),
      (bytes) => {
        if (bytes > 3 * PART_BYTES) throw refusal;
      },
    );
    await expect(upload).rejects.toBe(refusal);
    expect(read).toBeLessThan(3 * PART_BYTES + 200_000);
    expect(await exists('upload-test/refused')).toBe(false);
  });

  it('fails, without an unhandled rejection, when the storage goes away in the middle', async () => {
    const gone = await startS3Server();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let stopping: Promise<void> | undefined;
      const upload = uploadObject(
        gone.location('upload-test/'),
        'upload-test/gone',
        // The source waits while the storage stops: the parts in flight fail meanwhile.
        counted(8 * PART_BYTES, async (bytes) => {
          if (bytes > 2 * PART_BYTES && !stopping) {
            stopping = gone.stop();
            await stopping;
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }),
      );
      await expect(upload).rejects.toThrow();
      await stopping;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

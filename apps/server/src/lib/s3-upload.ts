import {
  AbortMultipartUploadCommand,
  ChecksumAlgorithm,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { S3Location } from './s3-file-store.js';

/**
 * Multipart part size and parts in flight: an upload holds at most PART_BYTES × (PARTS_AT_ONCE + 1)
 * bytes (the parts being sent and the one being filled), whatever the file's size.
 */
export const PART_BYTES = 8 * 1024 * 1024;
export const PARTS_AT_ONCE = 2;

/**
 * The part buffers of one upload, reused from part to part. lib-storage's `Upload` concatenates each
 * part into a new 8 MiB buffer: on a 1 GiB file that is 128 fresh allocations of memory the kernel
 * must fault in and V8 counts as external memory, so full collections of the server's whole heap
 * follow (bench/NOTES.md, "On object storage": 37 % of the upload's CPU). Here a part's buffer is
 * filled again only once the request that sent it has answered (the SDK has let go of it, retries
 * included).
 */
class PartBuffers {
  private readonly free: Buffer[] = [];
  private made = 0;
  constructor(private readonly max: number) {}
  take(): Buffer {
    const buffer = this.free.pop();
    if (buffer) return buffer;
    if (this.made === this.max) throw new Error('No part buffer free: a part was taken before one was given back');
    this.made += 1;
    return Buffer.allocUnsafeSlow(PART_BYTES);
  }
  give(buffer: Buffer): void {
    this.free.push(buffer);
  }
}

/**
 * `source` stored as the object `key`, visible only once whole: one PUT when it fits one part, else a
 * multipart upload (parts of PART_BYTES, PARTS_AT_ONCE in flight, the source read no faster than they
 * go) completed at the end and aborted on any failure, the source's own included (`check` may throw on
 * a chunk: the upload is aborted and nothing appears). Answers the bytes stored.
 */
export async function uploadObject(
  s3: S3Location,
  key: string,
  source: AsyncIterable<Buffer>,
  check: (bytesSoFar: number) => void = () => {},
): Promise<number> {
  const target = { Bucket: s3.bucket, Key: key };
  const buffers = new PartBuffers(PARTS_AT_ONCE + 1);
  const inFlight: Array<Promise<CompletedPart>> = [];
  const parts: CompletedPart[] = [];
  let uploadId: string | undefined;
  let part = buffers.take();
  let filled = 0;
  let total = 0;
  // A part that fails while the source is read stops the reading at the next chunk.
  let failure: { error: unknown } | undefined;

  const send = async (buffer: Buffer, bytes: number, partNumber: number): Promise<CompletedPart> => {
    try {
      const answer = await s3.client.send(
        new UploadPartCommand({
          ...target,
          UploadId: uploadId,
          PartNumber: partNumber,
          Body: buffer.subarray(0, bytes),
          ContentLength: bytes,
        }),
      );
      if (!answer.ETag) throw new Error(`Part ${partNumber} of ${key} was answered without an ETag`);
      return {
        PartNumber: partNumber,
        ETag: answer.ETag,
        ...(answer.ChecksumCRC32 ? { ChecksumCRC32: answer.ChecksumCRC32 } : {}),
      };
    } finally {
      buffers.give(buffer);
    }
  };

  const sendPart = async () => {
    if (uploadId === undefined) {
      // As lib-storage does: the parts carry the checksum the client adds unless told to add none.
      const checksums = (await s3.client.config.requestChecksumCalculation()) === 'WHEN_SUPPORTED';
      const created = await s3.client.send(
        new CreateMultipartUploadCommand({
          ...target,
          ...(checksums ? { ChecksumAlgorithm: ChecksumAlgorithm.CRC32 } : {}),
        }),
      );
      if (!created.UploadId) throw new Error(`The multipart upload of ${key} was created without an id`);
      uploadId = created.UploadId;
    }
    const oldest = inFlight.length === PARTS_AT_ONCE ? inFlight.shift() : undefined;
    if (oldest) parts.push(await oldest);
    const sending = send(part, filled, parts.length + inFlight.length + 1);
    sending.catch((error: unknown) => {
      failure ??= { error };
    });
    inFlight.push(sending);
    part = buffers.take();
    filled = 0;
  };

  try {
    for await (const chunk of source) {
      if (failure) throw failure.error;
      total += chunk.length;
      check(total);
      let offset = 0;
      while (offset < chunk.length) {
        const copied = chunk.copy(part, filled, offset);
        filled += copied;
        offset += copied;
        if (filled === PART_BYTES) await sendPart();
      }
    }
    if (uploadId === undefined) {
      await s3.client.send(new PutObjectCommand({ ...target, Body: part.subarray(0, filled), ContentLength: filled }));
      return total;
    }
    if (filled > 0) await sendPart();
    for (const sending of inFlight.splice(0)) parts.push(await sending);
    await s3.client.send(
      new CompleteMultipartUploadCommand({ ...target, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
    );
    return total;
  } catch (error) {
    await Promise.allSettled(inFlight);
    if (uploadId !== undefined) {
      // Best effort: an upload left behind is never visible, and the bucket's lifecycle rule removes it.
      await s3.client.send(new AbortMultipartUploadCommand({ ...target, UploadId: uploadId })).catch(() => {});
    }
    throw error;
  }
}

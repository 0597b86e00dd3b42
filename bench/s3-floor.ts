/**
 * The floor of object storage (issue 35): the same job done with the AWS SDK alone against the same
 * S3 server, as a script would do it (bench/s3-floor-script.ts, a Node process of its own). Where the
 * S3 server shares the machine's cores (s3rver on loopback), a ratio to `cp` or `zip` says more about
 * it than about Gantry; a ratio to this floor says what Gantry adds. Uploads use the part size and
 * parts in flight of Gantry's own store (S3FileStore), so the requests are the same.
 */
import { execFile } from 'node:child_process';
import { PART_BYTES, PARTS_AT_ONCE } from '../apps/server/src/lib/s3-upload.js';
import type { S3TestServer } from '../apps/server/src/test/s3-server.js';
import { ROOT } from './lib.js';

export type FloorJob =
  /** `file` uploaded as `name`, then downloaded into `target` (fsync'd, then removed). */
  | { kind: 'transfer'; name: string; file: string; target: string }
  /**
   * The objects under `mediaPrefix` fetched (`atOnce` at a time) into `folder`/`filesDir`, then
   * `zip -1 -r` of `folder` streamed into an upload as `name`.
   */
  | { kind: 'backup'; name: string; mediaPrefix: string; folder: string; filesDir: string; atOnce: number };

/** How the floor's uploads (and Gantry's store's) go, for the bench's notes. */
export const UPLOAD_PARTS = `${PART_BYTES / 1024 / 1024} MiB parts, ${PARTS_AT_ONCE} in flight`;

/** Where the floor's objects go in the bucket (apart from the server's), removed after each job. */
const FLOOR_PREFIX = 'bench-floor/';

/** Runs `job` in the floor's own process (its start not timed); the timings it printed. */
export function sdkAlone<T extends Record<string, number>>(s3: S3TestServer, job: FloorJob): Promise<T> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...s3.env, GANTRY_S3_PREFIX: FLOOR_PREFIX };
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bench/s3-floor-script.ts', JSON.stringify(job)],
      { cwd: ROOT, env, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`SDK alone (${job.kind}): ${error.message} ${stderr}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

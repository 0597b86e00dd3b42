/**
 * A private S3-compatible server for the object-storage tests (issue 35): s3rver from the npm
 * registry in a process of its own (test/s3rver-main.ts) on 127.0.0.1 with a free port, its objects
 * in a temporary directory; `stop()` ends that process (and only it) and removes the directory. Its
 * fixed account (S3RVER / S3RVER) signs every request, as a real service wants.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { S3Client } from '@aws-sdk/client-s3';
import { type S3Location, s3LocationOf } from '../lib/s3-file-store.js';

export const S3_TEST_BUCKET = 'gantry-test';
const ACCOUNT = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3TestServer {
  endpoint: string;
  /** The settings a server under test is started with (GANTRY_STORAGE=s3 and the SDK's credentials). */
  env: Record<string, string>;
  /** A store location on it, under `prefix`. */
  location(prefix: string): S3Location;
  stop(): Promise<void>;
}

/** `port`: a fixed one (the benchmark's); by default a free one. */
export async function startS3Server(options: { port?: number } = {}): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(tmpdir(), 'gantry-s3-'));
  const main = fileURLToPath(new URL('./s3rver-main.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '--import', 'tsx', main, directory, S3_TEST_BUCKET, String(options.port ?? 0)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('s3rver did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const clients: S3Client[] = [];
  return {
    endpoint,
    env: {
      GANTRY_STORAGE: 's3',
      GANTRY_S3_BUCKET: S3_TEST_BUCKET,
      GANTRY_S3_ENDPOINT: endpoint,
      GANTRY_S3_REGION: 'us-east-1',
      GANTRY_S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: ACCOUNT.accessKeyId,
      AWS_SECRET_ACCESS_KEY: ACCOUNT.secretAccessKey,
    },
    location(prefix) {
      // The server's own construction (what GANTRY_S3_* above give it), so tests and bench talk alike.
      const location = s3LocationOf({
        bucket: S3_TEST_BUCKET,
        prefix,
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: ACCOUNT,
      });
      clients.push(location.client);
      return location;
    },
    async stop() {
      for (const client of clients) client.destroy();
      child.kill('SIGTERM');
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}

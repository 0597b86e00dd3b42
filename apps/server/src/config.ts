import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKUP_LIMITS, MEDIA_LIMITS } from '@gantry/shared';
import { z } from 'zod';
import { S3_COPY_MAX_BYTES } from './lib/s3-limits.js';
import { DEVELOPMENT_PUBLIC_KEY } from './modules/licence/development-key.js';
import { SERVER_ROOT } from './server-root.js';

/** Everything the server reads from the environment, parsed and checked once at start. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Project sites over HTTPS (issue 15 §2): the one TLS port (SNI) of isUseHttps domains; unset: none. */
  GANTRY_SITES_HTTPS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  GANTRY_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Login calls allowed per client address per minute, counted before any password is hashed. */
  GANTRY_LOGIN_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Password hashes computed at once; more wait in a short queue, beyond it the call gets 429. */
  GANTRY_HASH_CONCURRENCY: z.coerce.number().int().min(1).default(2),
  GANTRY_HASH_QUEUE: z.coerce.number().int().min(0).default(32),
  /** The largest file one media-library upload may bring (bytes; 2 GiB by default). */
  GANTRY_MEDIA_FILE_MAX_BYTES: z.coerce.number().int().min(1).default(MEDIA_LIMITS.fileBytes),
  GANTRY_BACKUP_UPLOAD_MAX_MB: z.coerce.number().int().min(1).default(20_480),
  /** Bytes (in MB) all entries of one archive may expand to; never more than the data directory's free space. */
  GANTRY_ARCHIVE_EXPANDED_MAX_MB: z.coerce
    .number()
    .int()
    .min(1)
    .default(BACKUP_LIMITS.expandedBytesMax / 1024 ** 2),
  GANTRY_SAFETY_BACKUPS_KEEP: z.coerce.number().int().min(1).max(100).default(3),
  /** A whole-project restore of at least this many documents gets the project a partition of its own. */
  GANTRY_OWN_PARTITION_MIN_DOCUMENTS: z.coerce.number().int().min(1).default(100_000),
  /**
   * Behind a reverse proxy: 'true' (trust any), or the proxies' addresses (comma-separated), so
   * that the client address (login throttling, verification codes) comes from X-Forwarded-For.
   */
  GANTRY_TRUST_PROXY: z
    .string()
    .regex(/^(|false|true|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/, 'must be true or proxy addresses')
    .default(''),
  /** Embedded database buffer cache (PostgreSQL size syntax). */
  GANTRY_PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^\d+(kB|MB|GB)$/, 'must be a size such as 32MB')
    .default('32MB'),
  /** Longest database statement of a request; longer ones are stopped and the caller told why. */
  GANTRY_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  /** Longest statement of long work (vacuum, backups). */
  GANTRY_BACKGROUND_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(86_400_000).default(900_000),
  /** The time-series clean-up's pause between batches of 1,000 deletions: how gently it shares the database. */
  GANTRY_RETENTION_PAUSE_MS: z.coerce.number().int().min(0).max(60_000).default(5),
  /** Where project files live (issue 35): the data directory's disk, or S3-compatible object storage. */
  GANTRY_STORAGE: z.enum(['disk', 's3']).default('disk'),
  GANTRY_S3_BUCKET: z
    .string()
    .regex(/^([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])?$/, 'must be an S3 bucket name (3 to 63 of a-z, 0-9, dot, hyphen)')
    .default(''),
  /** Keys are `<prefix><area>/<path>`: several installs may share a bucket. */
  GANTRY_S3_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9!_.*'()-]+\/)*$/, 'must be folder names each ending in / (e.g. gantry/), or empty')
    .default(''),
  GANTRY_S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s/]+\/?$/, 'must be an http(s) URL such as https://s3.example.com')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  GANTRY_S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]*$/, 'must be a region name such as us-east-1')
    .default(''),
  GANTRY_S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '']).default(''),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  AWS_SESSION_TOKEN: z.string().optional(),
  /** The built console; served at /portal/ when present. */
  GANTRY_CONSOLE_DIR: z.string().optional(),
  /**
   * Vendor public keys whose licence files are accepted: base64 raw Ed25519 keys (as printed by
   * `npm run licence -- keygen`), comma-separated. None configured: an evaluation install, which
   * trusts the development key (and says so); otherwise the development key is trusted outside
   * production only.
   */
  GANTRY_LICENCE_PUBLIC_KEYS: z
    .string()
    .regex(
      /^\s*([A-Za-z0-9+/]{43}=\s*(,\s*[A-Za-z0-9+/]{43}=\s*)*)?$/,
      'must be base64 Ed25519 public keys, comma-separated',
    )
    .default(''),
  /**
   * What a licence is bound to: this machine's hardware (`machine`), or the platform's identity in
   * its database (`platform`: every node of a several-node install has the same code).
   */
  GANTRY_LICENCE_BINDING: z.enum(['machine', 'platform']).default('machine'),
  /** The key that encrypts stored secrets (the FTP password): base64 of 32 bytes; else `<data dir>/secret.key`. */
  GANTRY_SECRET_KEY: z
    .string()
    .regex(/^\s*([A-Za-z0-9+/]{43}=)?\s*$/, 'must be the base64 of 32 bytes (openssl rand -base64 32)')
    .default(''),
  /** Prometheus metrics at GET /metrics for `Authorization: Bearer <this>`; unset: no metrics (404). */
  GANTRY_METRICS_TOKEN: z
    .string()
    .regex(/^([\x21-\x7e]{16,})?$/, 'must be at least 16 printable characters without spaces (openssl rand -hex 32)')
    .default(''),
});

/** Object storage of project files (GANTRY_STORAGE=s3). */
export interface S3Settings {
  bucket: string;
  prefix: string;
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
  /** From the environment given; absent: the SDK's own chain (shared config file, instance role…). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | undefined;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** The TLS port of project domains with isUseHttps (one listener, a certificate per domain by SNI). */
  sitesHttpsPort: number | undefined;
  /** Files (uploads and the embedded database); null keeps the database in memory (tests). */
  dataDir: string;
  databaseUrl: string | undefined;
  /** When false the embedded database lives in memory; used by tests. */
  persistDatabase: boolean;
  logLevel: string;
  loginRatePerMinute: number;
  hashConcurrency: number;
  hashQueue: number;
  mediaFileMaxBytes: number;
  /** The largest backup file an upload may bring (GANTRY_BACKUP_UPLOAD_MAX_MB, default 20 GiB). */
  backupUploadMaxBytes: number;
  /** The bound of one archive's expansion (GANTRY_ARCHIVE_EXPANDED_MAX_MB, default 64 GiB). */
  archiveExpandedMaxBytes: number;
  /** Safety backups (taken before each restore) kept per project. */
  safetyBackupsKeep: number;
  /** Documents from which a whole-project restore loads the project's own partition (GANTRY_OWN_PARTITION_MIN_DOCUMENTS). */
  ownPartitionMinDocuments: number;
  pgliteSharedBuffers: string;
  statementLimits: { requestMs: number; backgroundMs: number };
  /** The time-series clean-up's pause between batches (ms). */
  retentionPauseMs: number;
  consoleDir: string;
  trustProxy: boolean | string[];
  licencePublicKeys: string[];
  /** GANTRY_LICENCE_BINDING: the machine code is the hardware's, or the platform identity's. */
  licenceBinding: 'machine' | 'platform';
  /**
   * No vendor key configured: an evaluation install. It trusts the development licence key whatever
   * NODE_ENV says, and says so (a line at start, a banner in the console).
   */
  licenceEvaluation: boolean;
  /** GANTRY_SECRET_KEY (base64 of 32 bytes), or undefined: the data directory's key file is used. */
  secretKey: string | undefined;
  /** GANTRY_METRICS_TOKEN: the bearer token of GET /metrics; undefined: metrics off (no route, no hook). */
  metricsToken: string | undefined;
  /** GANTRY_STORAGE=s3: project files in this bucket; undefined: on the data directory's disk. */
  s3: S3Settings | undefined;
}

/** Whether licences signed with the development key are refused (production with a vendor key). */
export const refusesDevelopmentLicences = (config: Pick<Config, 'env' | 'licenceEvaluation'>) =>
  config.env === 'production' && !config.licenceEvaluation;

function parseTrustProxy(value: string): boolean | string[] {
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  return value.split(',');
}

export class ConfigError extends Error {}

type ParsedEnv = z.infer<typeof envSchema>;

/** The S3 settings when GANTRY_STORAGE=s3; what is missing or contradictory is named. */
function s3Settings(e: ParsedEnv): S3Settings | undefined {
  const given = [
    'GANTRY_S3_BUCKET',
    'GANTRY_S3_PREFIX',
    'GANTRY_S3_ENDPOINT',
    'GANTRY_S3_REGION',
    'GANTRY_S3_FORCE_PATH_STYLE',
  ] as const;
  if (e.GANTRY_STORAGE === 'disk') {
    const stray = given.filter((name) => e[name]);
    if (stray.length > 0) {
      throw new ConfigError(
        `Invalid configuration:\n  GANTRY_STORAGE: is disk, yet ${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set (set GANTRY_STORAGE=s3 to use object storage)`,
      );
    }
    return undefined;
  }
  const problems: string[] = [];
  if (!e.GANTRY_S3_BUCKET) problems.push('  GANTRY_S3_BUCKET: required when GANTRY_STORAGE=s3');
  if (!e.GANTRY_S3_REGION && !e.GANTRY_S3_ENDPOINT) {
    problems.push('  GANTRY_S3_REGION: required when GANTRY_STORAGE=s3 (or GANTRY_S3_ENDPOINT for another S3 service)');
  }
  if (Boolean(e.AWS_ACCESS_KEY_ID) !== Boolean(e.AWS_SECRET_ACCESS_KEY)) {
    problems.push('  AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY: set both or neither');
  }
  if (e.GANTRY_MEDIA_FILE_MAX_BYTES > S3_COPY_MAX_BYTES) {
    problems.push(
      '  GANTRY_MEDIA_FILE_MAX_BYTES: at most 5 GiB with GANTRY_STORAGE=s3 (the largest object one copy moves)',
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    bucket: e.GANTRY_S3_BUCKET,
    prefix: e.GANTRY_S3_PREFIX,
    endpoint: e.GANTRY_S3_ENDPOINT,
    // Any region name does for services that ignore it (the SDK requires one).
    region: e.GANTRY_S3_REGION || 'us-east-1',
    forcePathStyle: e.GANTRY_S3_FORCE_PATH_STYLE === 'true',
    credentials:
      e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
        ? {
            accessKeyId: e.AWS_ACCESS_KEY_ID,
            secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
            ...(e.AWS_SESSION_TOKEN ? { sessionToken: e.AWS_SESSION_TOKEN } : {}),
          }
        : undefined,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const s3 = s3Settings(e);
  const development = Buffer.from(DEVELOPMENT_PUBLIC_KEY, 'base64');
  const keys = e.GANTRY_LICENCE_PUBLIC_KEYS.split(',').map((k) => Buffer.from(k.trim(), 'base64'));
  // Compared as bytes: base64 has more than one spelling of the same key.
  if (e.NODE_ENV === 'production' && keys.some((k) => k.equals(development))) {
    throw new ConfigError(
      'Invalid configuration:\n  GANTRY_LICENCE_PUBLIC_KEYS: the development key cannot be trusted in production',
    );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    sitesHttpsPort: e.GANTRY_SITES_HTTPS_PORT,
    dataDir: path.resolve(e.GANTRY_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    persistDatabase: true,
    logLevel: e.LOG_LEVEL,
    loginRatePerMinute: e.GANTRY_LOGIN_RATE_PER_MINUTE,
    hashConcurrency: e.GANTRY_HASH_CONCURRENCY,
    hashQueue: e.GANTRY_HASH_QUEUE,
    mediaFileMaxBytes: e.GANTRY_MEDIA_FILE_MAX_BYTES,
    backupUploadMaxBytes: e.GANTRY_BACKUP_UPLOAD_MAX_MB * 1024 * 1024,
    archiveExpandedMaxBytes: e.GANTRY_ARCHIVE_EXPANDED_MAX_MB * 1024 * 1024,
    safetyBackupsKeep: e.GANTRY_SAFETY_BACKUPS_KEEP,
    ownPartitionMinDocuments: e.GANTRY_OWN_PARTITION_MIN_DOCUMENTS,
    pgliteSharedBuffers: e.GANTRY_PGLITE_SHARED_BUFFERS,
    statementLimits: {
      requestMs: e.GANTRY_STATEMENT_TIMEOUT_MS,
      backgroundMs: e.GANTRY_BACKGROUND_STATEMENT_TIMEOUT_MS,
    },
    retentionPauseMs: e.GANTRY_RETENTION_PAUSE_MS,
    consoleDir: path.resolve(e.GANTRY_CONSOLE_DIR ?? fileURLToPath(new URL('../console/dist', SERVER_ROOT))),
    trustProxy: parseTrustProxy(e.GANTRY_TRUST_PROXY),
    licencePublicKeys: e.GANTRY_LICENCE_PUBLIC_KEYS.split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    licenceEvaluation: e.GANTRY_LICENCE_PUBLIC_KEYS.trim() === '',
    licenceBinding: e.GANTRY_LICENCE_BINDING,
    secretKey: e.GANTRY_SECRET_KEY.trim() || undefined,
    metricsToken: e.GANTRY_METRICS_TOKEN || undefined,
    s3,
  };
}

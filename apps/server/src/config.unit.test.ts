import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('config', () => {
  it('has defaults for a bare machine', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', databaseUrl: undefined, env: 'development' });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.retentionPauseMs).toBe(5);
  });

  it('reads PORT, HOST, GANTRY_DATA_DIR and DATABASE_URL', () => {
    const config = loadConfig({
      PORT: '4000',
      HOST: '0.0.0.0',
      GANTRY_DATA_DIR: '/srv/gantry',
      DATABASE_URL: 'postgres://u@h/db',
    });
    expect(config).toMatchObject({
      port: 4000,
      host: '0.0.0.0',
      dataDir: '/srv/gantry',
      databaseUrl: 'postgres://u@h/db',
    });
  });

  it('reads the key of stored secrets: base64 of 32 bytes, or none', () => {
    expect(loadConfig({}).secretKey).toBeUndefined();
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ GANTRY_SECRET_KEY: ` ${key} ` }).secretKey).toBe(key);
    expect(() => loadConfig({ GANTRY_SECRET_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      'GANTRY_SECRET_KEY: must be the base64 of 32 bytes',
    );
    expect(() => loadConfig({ GANTRY_SECRET_KEY: 'not a key' })).toThrow('GANTRY_SECRET_KEY');
  });

  it('keeps project files on disk unless GANTRY_STORAGE=s3, which needs a bucket and a region or endpoint', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(() => loadConfig({ GANTRY_S3_BUCKET: 'files' })).toThrow(
      'GANTRY_STORAGE: is disk, yet GANTRY_S3_BUCKET is set',
    );
    expect(() => loadConfig({ GANTRY_STORAGE: 's3' })).toThrow('GANTRY_S3_BUCKET: required when GANTRY_STORAGE=s3');
    expect(() => loadConfig({ GANTRY_STORAGE: 's3', GANTRY_S3_BUCKET: 'files' })).toThrow('GANTRY_S3_REGION: required');
    expect(() =>
      loadConfig({ GANTRY_STORAGE: 's3', GANTRY_S3_BUCKET: 'Files_1', GANTRY_S3_REGION: 'eu-west-1' }),
    ).toThrow('GANTRY_S3_BUCKET: must be an S3 bucket name');
    expect(() =>
      loadConfig({
        GANTRY_STORAGE: 's3',
        GANTRY_S3_BUCKET: 'files',
        GANTRY_S3_REGION: 'x',
        GANTRY_S3_PREFIX: 'no-slash',
      }),
    ).toThrow('GANTRY_S3_PREFIX: must be folder names each ending in /');
    expect(() =>
      loadConfig({ GANTRY_STORAGE: 's3', GANTRY_S3_BUCKET: 'files', GANTRY_S3_REGION: 'x', AWS_ACCESS_KEY_ID: 'id' }),
    ).toThrow('AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY: set both or neither');
    expect(() =>
      loadConfig({
        GANTRY_STORAGE: 's3',
        GANTRY_S3_BUCKET: 'files',
        GANTRY_S3_REGION: 'x',
        GANTRY_MEDIA_FILE_MAX_BYTES: String(6 * 1024 ** 3),
      }),
    ).toThrow('GANTRY_MEDIA_FILE_MAX_BYTES: at most 5 GiB with GANTRY_STORAGE=s3');
    expect(
      loadConfig({
        GANTRY_STORAGE: 's3',
        GANTRY_S3_BUCKET: 'files',
        GANTRY_S3_PREFIX: 'gantry/site-a/',
        GANTRY_S3_ENDPOINT: 'http://127.0.0.1:9000',
        GANTRY_S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'id',
        AWS_SECRET_ACCESS_KEY: 'secret',
      }).s3,
    ).toEqual({
      bucket: 'files',
      prefix: 'gantry/site-a/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    // No keys given: the SDK's own chain (shared config file, instance role…).
    expect(
      loadConfig({ GANTRY_STORAGE: 's3', GANTRY_S3_BUCKET: 'files', GANTRY_S3_REGION: 'eu-west-1' }).s3,
    ).toMatchObject({
      region: 'eu-west-1',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
    });
  });

  it('reads which proxies to trust', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ GANTRY_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ GANTRY_TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(() => loadConfig({ GANTRY_TRUST_PROXY: 'everyone' })).toThrow('GANTRY_TRUST_PROXY');
  });

  it('fails fast with a readable message', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ GANTRY_PGLITE_SHARED_BUFFERS: 'lots' })).toThrow('GANTRY_PGLITE_SHARED_BUFFERS');
    expect(() => loadConfig({ GANTRY_RETENTION_PAUSE_MS: '-1' })).toThrow('GANTRY_RETENTION_PAUSE_MS');
    expect(loadConfig({ GANTRY_RETENTION_PAUSE_MS: '100' }).retentionPauseMs).toBe(100);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (error) {
      expect((error as Error).message).toContain('PORT');
      expect((error as Error).message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    }
  });
});

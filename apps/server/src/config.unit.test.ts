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

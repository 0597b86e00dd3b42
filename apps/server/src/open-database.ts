import path from 'node:path';
import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';

/**
 * Opens the database the config names, as the server runs it. Apart from app.ts (which loads Fastify
 * and every module) so that main.ts can start the database first and load the rest of the server
 * while the embedded engine's process comes up.
 */
export function openConfiguredDatabase(config: Config, onLog: (message: string) => void): Promise<DatabaseHandle> {
  return openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pglite'),
    pgliteSharedBuffers: config.pgliteSharedBuffers,
    limits: config.statementLimits,
    onLog,
  });
}

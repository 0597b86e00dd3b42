import path from 'node:path';
import type { Config } from './config.js';
import {
  type DatabaseHandle,
  type DatabaseOptions,
  type OpeningDatabase,
  openDatabase,
  startDatabase,
} from './db/database.js';

/**
 * The database the config names, as the server runs it. Apart from app.ts (which loads Fastify and
 * every module) so that main.ts can start the database first and load and build the rest of the
 * server while the embedded engine's process comes up.
 */
export function startConfiguredDatabase(config: Config, onLog: (message: string) => void): Promise<OpeningDatabase> {
  return startDatabase(databaseOptions(config, onLog));
}

/** The same, once ready (the command-line tools, the app built without a database given). */
export function openConfiguredDatabase(config: Config, onLog: (message: string) => void): Promise<DatabaseHandle> {
  return openDatabase(databaseOptions(config, onLog));
}

function databaseOptions(config: Config, onLog: (message: string) => void): DatabaseOptions {
  return {
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pglite'),
    pgliteSharedBuffers: config.pgliteSharedBuffers,
    limits: config.statementLimits,
    onLog,
  };
}

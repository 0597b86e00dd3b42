import path from 'node:path';
import { dateOfDay, dayNumber, grantSchema, localDate } from '@gantry/shared';
import { openDatabase } from '../apps/server/src/db/database.js';
import { LicenceRepository } from '../apps/server/src/modules/licence/licence.repository.js';

/**
 * Installs a platform licence in the e2e data directory before the server starts. The signed
 * licence upload belongs to the licence issue; until then the browser tests begin with one in place.
 */
const dataDir = process.env.GANTRY_DATA_DIR;
if (!dataDir) throw new Error('GANTRY_DATA_DIR is not set');
const database = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
try {
  const today = localDate(new Date());
  await new LicenceRepository(database.db).install(
    grantSchema.parse({
      validityPeriod: 365,
      startTime: dateOfDay(dayNumber(today) - 1),
      userCount: 500,
      flow: { tableCount: 500 },
      dataGathering: { point: 50_000 },
      features: ['gis', 'threeD', 'DST', 'DI', 'AI', 'video'],
    }),
  );
} finally {
  await database.close();
}

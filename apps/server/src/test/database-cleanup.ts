import { afterAll } from 'vitest';
import { drainPools } from './database-pool.js';

// Each test file's idle test databases go with it (a PostgreSQL one would otherwise outlive the run).
// Only the pool module is imported here: importing the app's modules before a test file's vi.mock
// would load them unmocked.
afterAll(() => drainPools());

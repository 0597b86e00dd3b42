import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The extensions every embedded database loads, in the server's host process and in tests alike:
 * migrations may use them (`pg_trgm` indexes the name filters), so both must have the same set.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

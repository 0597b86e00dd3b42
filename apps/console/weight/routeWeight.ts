import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ENTRY_MODULES, ROUTE_BUDGETS, type RouteBudget } from './budgets.js';

/** apps/console */
export const CONSOLE_DIR = path.resolve(import.meta.dirname, '..');
/** GANTRY_CONSOLE_DIST: measure another build (vite build --outDir …). */
export const DIST_DIR = process.env.GANTRY_CONSOLE_DIST ?? path.join(CONSOLE_DIR, 'dist');
export const MANIFEST = path.join(DIST_DIR, '.vite', 'manifest.json');

/** One chunk of Vite's build manifest (build.manifest: true). */
interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface RouteWeight {
  route: string;
  /** gzip -9 size of the route's JavaScript, bytes. */
  gzip: number;
  raw: number;
  files: string[];
  budgetKib: number;
}

/** Builds the console when there is no manifest yet (a fresh clone running the test alone). */
export function readManifest(): Manifest {
  if (!existsSync(MANIFEST)) {
    execFileSync('npm', ['run', 'build', '-w', '@gantry/console'], {
      cwd: path.resolve(CONSOLE_DIR, '../..'),
      stdio: 'inherit',
    });
  }
  return JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
}

/** The files a chunk needs before it runs: itself and its static imports, recursively. */
function staticClosure(manifest: Manifest, key: string, into: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  if (into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const dep of chunk.imports ?? []) staticClosure(manifest, dep, into);
}

const gzipCache = new Map<string, { gzip: number; raw: number }>();
function sizeOf(file: string): { gzip: number; raw: number } {
  let size = gzipCache.get(file);
  if (!size) {
    const bytes = readFileSync(path.join(DIST_DIR, file));
    size = { gzip: gzipSync(bytes, { level: 9 }).length, raw: bytes.length };
    gzipCache.set(file, size);
  }
  return size;
}

/** The JavaScript a route downloads: the entry's closure, then each of its modules' closures. */
export function routeWeight(manifest: Manifest, budget: RouteBudget): RouteWeight {
  const files = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) staticClosure(manifest, key, files);
  for (const module of [...ENTRY_MODULES, ...budget.modules]) staticClosure(manifest, module, files);
  const js = [...files].filter((file) => file.endsWith('.js'));
  let gzip = 0;
  let raw = 0;
  for (const file of js) {
    const size = sizeOf(file);
    gzip += size.gzip;
    raw += size.raw;
  }
  return { route: budget.route, gzip, raw, files: js, budgetKib: budget.kib };
}

export function allRouteWeights(manifest: Manifest = readManifest()): RouteWeight[] {
  return ROUTE_BUDGETS.map((budget) => routeWeight(manifest, budget));
}

/**
 * Page modules of the build that no budget names: the lazy routes (the entry's dynamic imports
 * under src/pages, i.e. every page of routes.tsx and app/router.tsx). A new page needs a line in
 * weight/budgets.ts.
 */
export function pagesWithoutBudget(manifest: Manifest): string[] {
  const named = new Set(ROUTE_BUDGETS.flatMap((budget) => budget.modules));
  const pages = Object.values(manifest)
    .filter((chunk) => chunk.isEntry)
    .flatMap((chunk) => chunk.dynamicImports ?? [])
    .filter((key) => key.startsWith('src/pages/'));
  return [...new Set(pages)].filter((key) => !named.has(key));
}

export const kib = (bytes: number) => (bytes / 1024).toFixed(1);

/** `node --import tsx apps/console/weight/routeWeight.ts`: the table, for a measurement by hand. */
export function printTable(weights: RouteWeight[]): string {
  const rows = weights.map(
    (w) =>
      `| ${w.route} | ${kib(w.gzip)} | ${w.budgetKib} | ${kib(w.raw)} | ${w.files.length} |${w.gzip > w.budgetKib * 1024 ? ' OVER' : ''}`,
  );
  return ['| route | JS gzip KiB | budget | raw KiB | files |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  console.log(printTable(allRouteWeights()));
}

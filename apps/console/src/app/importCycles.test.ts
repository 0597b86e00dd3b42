import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const CONSOLE = path.resolve(import.meta.dirname, '../..');
const REPOSITORY = path.resolve(CONSOLE, '../..');

const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

/**
 * Relative imports resolved as Vite does, with the exact case (esbuild's own lookup ignores case, so
 * it takes `./ProjectForm.tsx` for `./projectForm`).
 */
const exactCase: Plugin = {
  name: 'exact-case',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const base = path.resolve(args.resolveDir, args.path);
      const found = EXTENSIONS.map((extension) => base + extension).find((file) =>
        statSync(file, { throwIfNoEntry: false })?.isFile(),
      );
      return found ? { path: found } : undefined;
    });
  },
};

/**
 * A module graph as the bundler sees it: every source module reached from `entryPoints` and what it
 * imports at run time (static and dynamic imports; type-only imports are gone), packages left out.
 */
async function moduleGraph(root: string, entryPoints: string[]): Promise<Map<string, string[]>> {
  const result = await build({
    absWorkingDir: root,
    entryPoints,
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: 'dist-import-graph',
    write: false,
    metafile: true,
    logLevel: 'silent',
    packages: 'external',
    plugins: [exactCase],
    jsx: 'automatic',
    loader: { '.css': 'empty', '.svg': 'empty', '.png': 'empty', '.woff2': 'empty' },
  });
  const inputs: Metafile['inputs'] = result.metafile.inputs;
  const graph = new Map<string, string[]>();
  for (const [file, input] of Object.entries(inputs)) {
    graph.set(
      file,
      input.imports.filter((edge) => !edge.external && edge.path in inputs).map((edge) => edge.path),
    );
  }
  return graph;
}

/** Every source module under `folder` (relative to `root`) but tests and declarations: all are entries. */
function sourceFiles(root: string, folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$|\.d\.ts$/.test(file))
    .map((file) => path.join(folder, file));
}

/** The strongly connected components of more than one module, or of one that imports itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found;
}

describe('import cycles', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('the console has none, lazy routes included', async () => {
    const graph = await moduleGraph(CONSOLE, ['src/main.tsx']);
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('src/app/router.tsx')).toContain('src/routes.tsx');
    expect(cycles(graph)).toEqual([]);
  }, 60_000);

  // Runtime imports only, as in the console: a cycle of `import type` is no cycle.
  it('the server and the shared package have none, every source module an entry', async () => {
    const server = path.join(REPOSITORY, 'apps/server');
    const serverGraph = await moduleGraph(server, sourceFiles(server, 'src'));
    expect(serverGraph.size).toBeGreaterThan(200);
    expect(serverGraph.get('src/main.ts')).toBeDefined();
    expect(cycles(serverGraph)).toEqual([]);
    const shared = path.join(REPOSITORY, 'packages/shared');
    const sharedGraph = await moduleGraph(shared, sourceFiles(shared, 'src'));
    expect(sharedGraph.size).toBeGreaterThan(20);
    expect(cycles(sharedGraph)).toEqual([]);
  }, 60_000);
});

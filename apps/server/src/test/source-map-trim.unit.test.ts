import { SourceMap, type SourceMapPayload } from 'node:module';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const TRIM = new URL('../../../../scripts/source-map-trim.mjs', import.meta.url).href;
type Trim = (map: SourceMapPayload, keep: (source: string) => boolean) => SourceMapPayload;

/** Our module and a package's, bundled by esbuild as the server build does. */
async function bundled(): Promise<{ code: string; map: SourceMapPayload }> {
  const files: Record<string, string> = {
    '/app/src/main.ts': [
      "import { shout } from 'pkg';",
      'export function greet(name: string): string {',
      "  const text = 'hello ' + name;",
      '  return shout(text);',
      '}',
    ].join('\n'),
    '/app/node_modules/pkg/index.js': [
      'export function shout(text) {',
      '  const upper = text.toUpperCase();',
      "  return upper + '!';",
      '}',
    ].join('\n'),
  };
  const result = await build({
    entryPoints: ['/app/src/main.ts'],
    bundle: true,
    write: false,
    format: 'esm',
    sourcemap: 'external',
    sourcesContent: false,
    outfile: '/app/dist/main.js',
    logLevel: 'silent',
    plugins: [
      {
        name: 'in-memory',
        setup(b) {
          b.onResolve({ filter: /^pkg$/ }, () => ({ path: '/app/node_modules/pkg/index.js' }));
          b.onResolve({ filter: /^\/app\// }, (args) => ({ path: args.path }));
          b.onLoad({ filter: /.*/ }, (args) => ({
            contents: files[args.path],
            loader: args.path.endsWith('.ts') ? 'ts' : 'js',
          }));
        },
      },
    ],
  });
  const file = (suffix: string) => result.outputFiles.find((output) => output.path.endsWith(suffix))?.text ?? '';
  return { code: file('main.js'), map: JSON.parse(file('main.js.map')) };
}

describe('source maps of our sources only', () => {
  it("keeps every mapping into our sources and none into a package's", async () => {
    const { trimSourceMap } = (await import(TRIM)) as { trimSourceMap: Trim };
    const { code, map } = await bundled();
    const trimmed = trimSourceMap(map, (source) => !source.split('/').includes('node_modules'));
    expect(map.sources.some((source) => source.includes('node_modules'))).toBe(true);
    expect(trimmed.sources.some((source) => source.includes('node_modules'))).toBe(false);
    const before = new SourceMap(map);
    const after = new SourceMap(trimmed);
    let ours = 0;
    let theirs = 0;
    code.split('\n').forEach((line, lineNumber) => {
      for (let column = 0; column < line.length; column++) {
        const entry = before.findEntry(lineNumber, column);
        const kept = after.findEntry(lineNumber, column);
        if (!('originalSource' in entry)) continue;
        if (entry.originalSource.includes('node_modules')) {
          theirs++;
          expect(kept, `${lineNumber}:${column}`).not.toHaveProperty('originalSource');
        } else {
          ours++;
          expect(kept, `${lineNumber}:${column}`).toEqual(entry);
        }
      }
    });
    expect(ours).toBeGreaterThan(10);
    expect(theirs).toBeGreaterThan(10);
  });
});

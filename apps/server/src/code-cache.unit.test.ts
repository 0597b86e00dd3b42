import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CODE_CACHE = fileURLToPath(new URL('./code-cache.ts', import.meta.url));
const TRIM = new URL('../../../scripts/source-map-trim.mjs', import.meta.url).href;
type Trim = (map: SourceMapPayload, keep: (source: string) => boolean) => SourceMapPayload;
const dir = mkdtempSync(path.join(tmpdir(), 'gantry-code-cache-'));
const bundle = path.join(dir, 'server.cjs');
const cacheDir = path.join(dir, '.code-cache');

/** A bundle built as the server's is (scripts/build-server.mjs): it throws from a known TypeScript line and imports an ES module. */
beforeAll(async () => {
  const entry = path.join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `import { saveCodeCache } from ${JSON.stringify(CODE_CACHE)};`,
      "import { call } from 'bundled-package';",
      'function fail(reason: string): never {',
      "  throw new Error('failed: ' + reason);",
      '}',
      'async function main(): Promise<void> {',
      '  let stack = "";',
      '  try {',
      '    call(() => fail("on purpose"));',
      '  } catch (error) {',
      '    stack = (error as Error).stack ?? "";',
      '  }',
      "  const { answer } = (await import('esm-only')) as { answer: number };",
      '  console.log(JSON.stringify({ stack, answer, state: saveCodeCache() }));',
      '}',
      'void main();',
    ].join('\n'),
  );
  // A package bundled in, after some of our code (code-cache.ts), whose code the trimmed map does
  // not name (scripts/source-map-trim.mjs: a one-field segment where it starts).
  const bundled = path.join(dir, 'node_modules/bundled-package');
  mkdirSync(bundled, { recursive: true });
  writeFileSync(path.join(bundled, 'package.json'), JSON.stringify({ name: 'bundled-package', type: 'module' }));
  writeFileSync(path.join(bundled, 'index.js'), 'export function call(fn) {\n  return fn();\n}\n');
  // An ES-module-only package beside the bundle, as openid-client and marked are.
  const esmOnly = path.join(dir, 'node_modules/esm-only');
  mkdirSync(esmOnly, { recursive: true });
  writeFileSync(
    path.join(esmOnly, 'package.json'),
    JSON.stringify({ name: 'esm-only', type: 'module', exports: './index.js' }),
  );
  writeFileSync(path.join(esmOnly, 'index.js'), 'export const answer = 42;\n');
  await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    external: ['esm-only'],
    supported: { 'dynamic-import': false },
    logLevel: 'silent',
  });
  const { trimSourceMap } = (await import(TRIM)) as { trimSourceMap: Trim };
  const map = JSON.parse(readFileSync(`${bundle}.map`, 'utf8')) as SourceMapPayload;
  const trimmed = trimSourceMap(map, (source) => !source.split('/').includes('node_modules'));
  writeFileSync(`${bundle}.map`, JSON.stringify(trimmed));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bundle through `runCached` in a Node of its own, as dist/main.js does. */
function start(): { stack: string; answer: number; state: string } {
  const launcher = `import(${JSON.stringify(CODE_CACHE)}).then((m) => m.runCached(${JSON.stringify(bundle)}));`;
  // From here, where tsx is found; the bundle finds its package from its own folder.
  const cwd = path.dirname(CODE_CACHE);
  const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', launcher], { cwd, encoding: 'utf8' });
  return JSON.parse(output);
}

describe('the server bundle compiled with its code cache', () => {
  it('writes the cache at the first start, uses it at the next, and writes it again when V8 rejects it', () => {
    const first = start();
    expect(first.state).toBe('written');
    expect(first.answer).toBe(42);
    const files = readdirSync(cacheDir);
    expect(files).toHaveLength(1);
    expect(start().state).toBe('used');
    writeFileSync(path.join(cacheDir, files[0] ?? ''), 'not a code cache');
    expect(start().state).toBe('written');
    expect(start().state).toBe('used');
  });

  it("names the TypeScript line a stack frame was built from, and a bundled package's frame as V8 wrote it", () => {
    const { stack } = start();
    const lines = stack.split('\n');
    expect(lines[0]).toBe('Error: failed: on purpose');
    expect(stack).toMatch(/at fail \(.*entry\.ts:4:\d+\)/);
    expect(stack).toMatch(/at main \(.*entry\.ts:9:\d+\)/);
    // The package's function (esbuild may rename it), unmapped.
    expect(
      lines.find((line) => /at call\d* \(/.test(line)),
      stack,
    ).toMatch(/server\.cjs:\d+:\d+\)$/);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CODE_CACHE = fileURLToPath(new URL('./code-cache.ts', import.meta.url));
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
      'function fail(reason: string): never {',
      "  throw new Error('failed: ' + reason);",
      '}',
      'async function main(): Promise<void> {',
      '  let stack = "";',
      '  try {',
      '    fail("on purpose");',
      '  } catch (error) {',
      '    stack = (error as Error).stack ?? "";',
      '  }',
      "  const { answer } = (await import('esm-only')) as { answer: number };",
      '  console.log(JSON.stringify({ stack, answer, state: saveCodeCache() }));',
      '}',
      'void main();',
    ].join('\n'),
  );
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

  it('names the TypeScript line a stack frame was built from', () => {
    const { stack } = start();
    expect(stack.split('\n')[0]).toBe('Error: failed: on purpose');
    expect(stack).toMatch(/at fail \(.*entry\.ts:3:\d+\)/);
    expect(stack).toMatch(/at main \(.*entry\.ts:8:\d+\)/);
    expect(stack).not.toContain('server.cjs');
  });
});

/**
 * The built server runs from one CommonJS bundle (dist/server.cjs) compiled with V8's code cache:
 * Node 20 has no compile cache of its own (`module.enableCompileCache` came in 22), and compiling
 * the bundle's 6 MB, then each function as a start first calls it, was a third of a start's CPU.
 * `runCached` (dist/main.js, src/launch.ts) compiles the bundle with the cache a previous start of the
 * same build, Node and flags left, and runs it; the server calls `saveCodeCache` once it listens, which
 * writes the cache (the functions compiled so far included) when there was none to use. V8 rejects a
 * cache made by another V8 or with other flags; each Node, architecture and set of flags has its own
 * file, beside the bundle, so a rebuild (which replaces dist/) drops them all.
 *
 * A script compiled this way is not one Node maps to its sources (`--enable-source-maps`): stack
 * traces through the bundle are mapped here, from its map, to the TypeScript they were built from.
 * Nor can it `import()` (Node 20 loses the script's loader when it comes from a cache): the build
 * turns every import() into require(), which loads ES modules too since Node 20.19.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire, SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** How a start used the code cache, in its start line: a cache read, or the one it wrote (or could not). */
export type CodeCacheState = 'used' | 'written' | 'not written';

interface Saver {
  /** The state of this start; writes the cache first when none could be used. */
  save(): CodeCacheState;
}

/** The launcher and the bundle are built apart: they meet through Node's global symbol registry. */
const SAVER = Symbol.for('gantry.codeCache');
const holder = globalThis as { [SAVER]?: Saver };

/** Called by the server once it listens, before it changes any V8 flag (the cache records them). */
export function saveCodeCache(): CodeCacheState | undefined {
  return holder[SAVER]?.save();
}

/** Compiles the CommonJS bundle `file` with its code cache, and runs it as Node would `require` it. */
export function runCached(file: string): void {
  const source = readFileSync(file, 'utf8');
  const cacheFile = cachePath(file);
  const cachedData = readOrNothing(cacheFile);
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  let state: CodeCacheState | undefined = used ? 'used' : undefined;
  holder[SAVER] = {
    save() {
      state ??= write(cacheFile, script) ? 'written' : 'not written';
      return state;
    },
  };
  mapStackTraces(file, Module.wrap('').indexOf('\n'));
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
}

/** One file per build (its size and time), Node, architecture and flags, in `.code-cache/` beside the bundle. */
function cachePath(file: string): string {
  const { size, mtimeMs } = statSync(file);
  const key = createHash('sha256')
    .update(JSON.stringify([process.version, process.arch, process.execArgv, size, mtimeMs]))
    .digest('hex')
    .slice(0, 24);
  return path.join(path.dirname(file), '.code-cache', `${path.basename(file)}.${key}`);
}

function readOrNothing(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written whole or not at all (renamed into place): another start may read it at any moment. */
function write(file: string, script: vm.Script): boolean {
  const partial = `${file}.${process.pid}.partial`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, file);
    return true;
  } catch {
    // A read-only install: each start compiles the bundle, as without a cache.
    return false;
  }
}

/**
 * Frames in the bundle named by the TypeScript line they were built from, as `--enable-source-maps`
 * names them in modules Node loads itself; other frames as V8 writes them. The map is read at the
 * first stack trace. `wrapperColumns`: what Module.wrap puts before the bundle's first line.
 */
function mapStackTraces(file: string, wrapperColumns: number): void {
  let map: SourceMap | null | undefined;
  const sourceMap = () => {
    if (map === undefined) {
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload);
      } catch {
        map = null;
      }
    }
    return map;
  };
  const mapped = (frame: NodeJS.CallSite): string => {
    const text = frame.toString();
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if (frame.getFileName() !== file || line === null || column === null) return text;
    const entry = sourceMap()?.findEntry(line - 1, line === 1 ? column - 1 - wrapperColumns : column - 1);
    // A bundled package's code has no mapping (the build keeps only ours): the frame as V8 wrote it.
    const source: unknown = entry && 'originalSource' in entry ? entry.originalSource : undefined;
    if (!entry || !('originalLine' in entry) || typeof source !== 'string') return text;
    const original = source.startsWith('file:') ? new URL(source).pathname : path.resolve(path.dirname(file), source);
    return text.replace(
      `${file}:${line}:${column}`,
      `${original}:${entry.originalLine + 1}:${entry.originalColumn + 1}`,
    );
  };
  Error.prepareStackTrace = (error: unknown, frames: NodeJS.CallSite[]) => {
    // Error.captureStackTrace takes any object (a few packages give it their own).
    const head = typeof error === 'object' && error !== null ? Error.prototype.toString.call(error) : String(error);
    const at = (frame: NodeJS.CallSite) => {
      // A stack trace is made wherever an error is: this must never throw.
      try {
        return `    at ${mapped(frame)}`;
      } catch {
        return `    at ${frame}`;
      }
    };
    return [head, ...frames.map(at)].join('\n');
  };
}

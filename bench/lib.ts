/** Helpers shared by the bench sections: load generation, HTTP, percentiles, result tables. */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The histogram records each timer's full period; the lag is what exceeds it. */
export const LAG_RESOLUTION_MS = 1;
export const lagMs = (h: { percentile(p: number): number }, p: number) =>
  Math.max(0, h.percentile(p) / 1e6 - LAG_RESOLUTION_MS).toFixed(1);

export interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}

/** autocannon in a child process (the measured server keeps its process); resolves with its JSON summary. */
export function load(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string>; body?: unknown },
): Promise<LoadResult> {
  const args = ['-j', '-c', String(options.connections), '-d', String(options.seconds)];
  if (options.body !== undefined) args.push('-m', 'POST', '-b', JSON.stringify(options.body));
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}=${v}`);
  const child = spawn(path.join(ROOT, 'node_modules/.bin/autocannon'), [...args, url], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`autocannon ${code}`)),
    );
  });
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** A plain keep-alive GET (lighter than fetch, so the client adds little to a sequential timing). */
export function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** Nearest-rank percentile of ascending samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface Samples {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Times `run` sequentially: a few warm-up calls, then at least `min` and at most `max` calls, stopping
 * early once `budgetMs` is spent. With fewer than 100 samples p99 is the largest one.
 */
export async function sample(
  run: () => Promise<unknown>,
  options: { min: number; max: number; budgetMs: number; warmUp?: number },
): Promise<Samples> {
  for (let i = 0; i < (options.warmUp ?? 3); i++) await run();
  const times: number[] = [];
  const started = performance.now();
  while (times.length < options.max && (times.length < options.min || performance.now() - started < options.budgetMs)) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  return summarise(times);
}

/**
 * Times two calls alternately (a, b, a, b, …) so that both see the same machine: on a shared machine
 * the load drifts, and timing one after the other would charge the drift to the comparison.
 */
export async function sampleAlternately(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  options: { min: number; max: number; budgetMs: number; warmUp?: number },
): Promise<[Samples, Samples]> {
  for (let i = 0; i < (options.warmUp ?? 3); i++) {
    await a();
    await b();
  }
  const times: [number[], number[]] = [[], []];
  const started = performance.now();
  while (
    times[0].length < options.max &&
    (times[0].length < options.min || performance.now() - started < options.budgetMs)
  ) {
    for (const [i, run] of [a, b].entries()) {
      const t = performance.now();
      await run();
      times[i as 0 | 1].push(performance.now() - t);
    }
  }
  return [summarise(times[0]), summarise(times[1])];
}

function summarise(times: number[]): Samples {
  times.sort((x, y) => x - y);
  return { n: times.length, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1)! };
}

/** Prints a markdown table. */
export function printTable(head: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  console.log(`\n| ${head.join(' | ')} |\n| ${head.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.map((cell) => cell.trim()).join(' | ')} |`);
}

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, sleep, startServer, stopServer } from './test/server-process.js';

const PROMETHEUS = '/usr/bin/prometheus';
const TOKEN = 'scrape-token-0123456789abcdef';

interface Target {
  health: string;
  lastError: string;
  scrapeUrl: string;
}

/**
 * The built server with GANTRY_METRICS_TOKEN, scraped by a real Prometheus (Debian's) on loopback
 * every second with the bearer token: the target comes up with no scrape error, and the series it
 * stored answer a query. Then both stop.
 */
describe('a real Prometheus scrapes GET /metrics', () => {
  let dir: string;
  let port: number;
  let prometheusPort: number;
  const started: ChildProcess[] = [];
  let prometheus: ChildProcess | undefined;
  let prometheusOutput = '';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'gantry-metrics-'));
    port = await freePort();
    await startServer(path.join(dir, 'data'), port, started, { env: { GANTRY_METRICS_TOKEN: TOKEN } });
    prometheusPort = await freePort();
    const config = [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 1s',
      'scrape_configs:',
      '  - job_name: gantry',
      '    metrics_path: /metrics',
      '    authorization:',
      '      type: Bearer',
      `      credentials: ${TOKEN}`,
      '    static_configs:',
      `      - targets: ['127.0.0.1:${port}']`,
      '',
    ].join('\n');
    await writeFile(path.join(dir, 'prometheus.yml'), config);
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dir, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${prometheusPort}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const keep = (chunk: Buffer) => {
      prometheusOutput = (prometheusOutput + String(chunk)).slice(-20_000);
    };
    prometheus.stdout?.on('data', keep);
    prometheus.stderr?.on('data', keep);
  }, 60_000);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null && prometheus.signalCode === null) {
      const exited = new Promise((resolve) => prometheus?.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    for (const child of started) await stopServer(child);
    await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it('finds the target up with no scrape error, and its series stored', async () => {
    const api = `http://127.0.0.1:${prometheusPort}/api/v1`;
    let target: Target | undefined;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const answer = await fetch(`${api}/targets?state=active`).catch(() => undefined);
      if (answer?.ok) {
        const body = (await answer.json()) as { data: { activeTargets: Target[] } };
        target = body.data.activeTargets[0];
        if (target?.health === 'up') break;
      }
      if (prometheus && prometheus.exitCode !== null) throw new Error(`prometheus exited:\n${prometheusOutput}`);
      await sleep(250);
    }
    expect(target, prometheusOutput).toBeDefined();
    expect(target?.scrapeUrl).toBe(`http://127.0.0.1:${port}/metrics`);
    expect(target?.lastError).toBe('');
    expect(target?.health).toBe('up');

    const query = await fetch(`${api}/query?query=${encodeURIComponent('up{job="gantry"}')}`);
    const result = (await query.json()) as { data: { result: Array<{ value: [number, string] }> } };
    expect(result.data.result[0]?.value[1]).toBe('1');
    const sessions = await fetch(`${api}/query?query=gantry_sessions`);
    const stored = (await sessions.json()) as { data: { result: Array<{ value: [number, string] }> } };
    expect(stored.data.result).toHaveLength(1);
  }, 30_000);
});

/**
 * Templates section of `npm run bench` (`npm run bench -- templates`, issue 14 §3):
 *  - the gallery's search (`GET templates?name_contains=&industry=`, no token, as the spec sends it)
 *    at 1,000 templates, 50 concurrent clients (autocannon in its own process), and the unfiltered
 *    first page, and a different search each request (1,000 names), taking turns; all are answered
 *    from the gallery's cards in memory (read again at most every 5 s, and after any change);
 *  - the install time of the largest built-in template: `POST project/_template` until its task ends
 *    (verification of the package, staging, one transaction, files swapped in), sequentially.
 * The app is built in this process (`buildApp`, logging off; embedded PGlite in its own process on a
 * scratch directory; 127.0.0.1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { INDUSTRIES } from '@gantry/shared';
import { eq } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { templates } from '../apps/server/src/db/schema.js';
import {
  BENCH_PASSWORD,
  httpLoad,
  installLicence,
  interleave,
  LOAD_SECONDS,
  licenceKey,
  monthGrant,
  ms,
  post,
  printNotes,
  printTable,
  rateText,
  summarise,
} from './lib.js';

const TEMPLATE_COUNT = 1000;
const INSTALLS = 5;

export async function templatesBench(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gantry-bench-templates-'));
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      GANTRY_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      GANTRY_LICENCE_PUBLIC_KEYS: licenceKey().publicBase64,
      GANTRY_LOGIN_RATE_PER_MINUTE: '100000',
    }),
    persistDatabase: false,
  };
  const { app, database, services } = await buildApp({ config, logger: false });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const spm = `${base}/portal/rest/spm`;
    const password = BENCH_PASSWORD;
    await post(`${spm}/admin/register`, { password });
    const login = await post(`${spm}/login`, { username: 'admin', password });
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    await installLicence(base, token);

    // 1,000 templates: the built-ins and copies of their rows (same package), names and industries varied.
    await services.templates.ensureBuiltins();
    const builtins = await database.db.select().from(templates);
    const largest = builtins.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const words = ['boiler', 'pump', 'substation', 'well', 'pipeline', 'lamp', 'meter', 'valve', 'tank', 'grid'];
    const rows = Array.from({ length: TEMPLATE_COUNT - builtins.length }, (_, i) => {
      const source = builtins[i % builtins.length] ?? largest;
      return {
        ...source,
        id: `bench${String(i).padStart(5, '0')}`,
        name: `${words[i % words.length]} ${words[(i * 7) % words.length]} monitoring ${i}`,
        industry: INDUSTRIES[i % INDUSTRIES.length] ?? 'other',
        source: 'platform' as const,
        ownerId: 'admin',
        version: null,
        numInstalled: i % 50,
      };
    });
    for (let i = 0; i < rows.length; i += 200) await database.db.insert(templates).values(rows.slice(i, i + 200));

    const search = `${spm}/templates?name_contains=pump&industry=heating`;
    const firstPage = `${spm}/templates?limit=24`;
    const check = await fetch(search);
    const found = ((await check.json()) as unknown[]).length;
    const measured = await interleave({
      search: (seconds) => httpLoad(search, { seconds }),
      firstPage: (seconds) => httpLoad(firstPage, { seconds }),
      uncached: (seconds) =>
        httpLoad(search, {
          seconds,
          randomPath: {
            template: '/portal/rest/spm/templates?name_contains=monitoring%20{n}&industry=heating',
            count: 999,
            width: 1,
          },
        }),
    });

    // Installs of the largest built-in, one after another.
    const times: number[] = [];
    for (let i = 0; i < INSTALLS; i++) {
      const started = performance.now();
      const response = await post(
        `${spm}/project/_template`,
        {
          projectId: `benchinstall${i}`,
          name: `Install ${i}`,
          industry: largest.industry,
          projectType: 'template',
          type: largest.id,
          // Room for the template's tables: the server refuses an install past the grant's table count.
          grant: monthGrant(10, 10),
        },
        auth,
      );
      if (response.status !== 200) throw new Error(`install: ${response.status} ${await response.text()}`);
      const { task } = (await response.json()) as { task: { id: string } };
      for (;;) {
        const state = (await (await fetch(`${spm}/proxy/core/taskmanager/${task.id}`, { headers: auth })).json()) as {
          status: string;
          message: string | null;
        };
        if (state.status === 'success') break;
        if (state.status !== 'ongoing') throw new Error(`install ${state.status}: ${state.message}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      times.push(performance.now() - started);
    }
    const [installed] = await database.db.select().from(templates).where(eq(templates.id, largest.id));
    const install = summarise(times);
    const documents = Object.values(largest.modules).reduce((sum, n) => sum + n, 0);

    console.log(
      `\n### Template gallery (${TEMPLATE_COUNT} templates; 50 clients, ${LOAD_SECONDS} s per target in turns; no token)`,
    );
    printTable(
      ['call', 'answers/s, p50 / p99 ms'],
      [
        [`GET templates?name_contains=pump&industry=heating (${found} found)`, rateText(measured.search)],
        ['GET templates?limit=24 (most installed first)', rateText(measured.firstPage)],
        [
          'GET templates?name_contains=monitoring <n>&industry=heating (n random: a different search each request)',
          rateText(measured.uncached),
        ],
      ],
    );
    console.log(
      `\n### Install of the largest built-in template (${largest.id}: ${documents} documents, ${largest.bytes} bytes packed)`,
    );
    printTable(
      ['measure', 'p50 / max ms', 'n'],
      [
        [
          'POST project/_template → task success (project made, package verified, content applied)',
          `${ms(install.p50)} / ${ms(Math.max(...times))}`,
          String(install.n),
        ],
      ],
    );
    printNotes([
      'Each answer: the scope, name and industry filters and the page over the cards in memory (every card read by one statement at most every 5 s and after any template change), the card fields serialised; no package is read, app_info is stored. Without a token: no session or permission lookup.',
      `Installs counted on the template: ${installed?.numInstalled ?? 0}.`,
    ]);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

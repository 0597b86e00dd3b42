/**
 * Licence section of `npm run bench` (`npm run bench -- licence`): what the signed licence costs.
 *  - verifying a licence file (Ed25519 + schema + canonical text), in process;
 *  - reading this machine's identity with systeminformation (once per process in the server);
 *  - over HTTP on the app built in this process (`buildApp`, logging off; embedded PGlite in its own
 *    process on a scratch directory; 127.0.0.1): `license/info` (state recomputed,
 *    verification cached per text), `license/verify` and `license/upload` (one transaction writing
 *    the licence, a history row and an audit entry), and `core/license/machineInfo` after the uploads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LICENCE_FORMAT, localDate, PLATFORM_PRODUCT } from '@gantry/shared';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { signLicence, verifyLicenceText } from '../apps/server/src/modules/licence/licence-signature.js';
import { machineCodeOf, readMachineIdentity } from '../apps/server/src/modules/licence/machine-identity.js';
import { developmentPrivateKey, trustedKeys } from '../apps/server/src/modules/licence/trusted-keys.js';
import { BENCH_PASSWORD, get, post, printTable, type Samples, sample } from './lib.js';

const ms = (value: number) => value.toFixed(value < 1 ? 3 : 1);
const row = (name: string, s: Samples): string[] => [name, `${ms(s.p50)} / ${ms(s.p99)}`, String(s.n)];

export async function licenceBench(): Promise<void> {
  const started = performance.now();
  const identity = await readMachineIdentity();
  const identityMs = performance.now() - started;
  const machineCode = machineCodeOf(identity);
  const key = developmentPrivateKey();
  let serial = 0;
  const file = (users: number) =>
    signLicence(
      {
        format: LICENCE_FORMAT,
        id: `bench-${++serial}`,
        product: PLATFORM_PRODUCT,
        machineCode,
        issuedAt: new Date().toISOString(),
        grant: {
          validityPeriod: 365,
          startTime: localDate(new Date()),
          userCount: users,
          flow: { tableCount: 1000 },
          dataGathering: { point: 100_000 },
          features: ['gis', 'threeD', 'DST', 'DI', 'AI', 'video', 'Oauth'],
        },
      },
      key,
    );
  const text = file(1000);
  const trusted = trustedKeys([], false);
  const verify = await sample(async () => verifyLicenceText(text, trusted, false), {
    min: 200,
    max: 2000,
    budgetMs: 2000,
  });

  const dataDir = mkdtempSync(path.join(tmpdir(), 'gantry-bench-licence-'));
  const config = {
    ...loadConfig({ NODE_ENV: 'test', GANTRY_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    persistDatabase: false,
  };
  const { app } = await buildApp({ config, logger: false, machineIdentity: async () => identity });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const password = BENCH_PASSWORD;
    await post(`${base}/portal/rest/spm/admin/register`, { password });
    const login = await post(`${base}/portal/rest/spm/login`, { username: 'admin', password });
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    const send = async (url: string, body: string) => {
      const form = new FormData();
      form.append('file', new Blob([body]), 'platform.lic');
      const response = await fetch(`${base}${url}`, { method: 'POST', headers: auth, body: form });
      if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    };
    const options = { min: 30, max: 300, budgetMs: 3000 };
    const upload = await sample(() => send('/portal/rest/license/upload', file(1000 + serial)), options);
    const verifyHttp = await sample(() => send('/portal/rest/license/verify', text), options);
    const info = await sample(async () => {
      const response = await get(`${base}/portal/rest/license/info`, auth);
      if (response.status !== 200) throw new Error(`license/info: ${response.status}`);
    }, options);
    const history = await sample(async () => {
      const response = await get(
        `${base}/portal/rest/core/license/machineInfo?query=${encodeURIComponent(JSON.stringify({ limit: 20, withCount: true }))}`,
        auth,
      );
      if (response.status !== 200) throw new Error(`machineInfo: ${response.status}`);
    }, options);
    console.log(
      `\n### Licence (the app built in this process, logging off, embedded PGlite in its own process; sequential calls; ${upload.n + 3} licences applied before the history was read)`,
    );
    printTable(
      ['measure', 'p50 / p99 ms', 'n'],
      [
        ['machine identity read (systeminformation, once per process)', ms(identityMs), '1'],
        row('verify a licence file in process (Ed25519 + schema + canonical text)', verify),
        row('POST license/verify (multipart, all checks, nothing written)', verifyHttp),
        row('POST license/upload (checks + licence + history row + audit, one transaction)', upload),
        row('GET license/info (state recomputed, verification cached per text)', info),
        row('GET core/license/machineInfo page of 20 + count', history),
      ],
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

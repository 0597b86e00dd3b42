import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LICENCE_FORMAT, MACHINE_CODE_PATTERN, PLATFORM_PRODUCT } from '@gantry/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error.js';
import {
  keyIdOf,
  privateKeyFromPem,
  publicKeyFromBase64,
  verifyLicenceText,
} from '../modules/licence/licence-signature.js';
import { machineCodeOf, readMachineIdentity } from '../modules/licence/machine-identity.js';
import { DEVELOPMENT_PUBLIC_KEY, trustedKeys } from '../modules/licence/trusted-keys.js';
import { TEST_MACHINE_CODE } from '../test/test-app.js';
import { runLicenceCli } from './licence.js';

const DEV_KEY_ID = keyIdOf(publicKeyFromBase64(DEVELOPMENT_PUBLIC_KEY));
const OTHER_CODE = '00000-11111-22222-33333-44444';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gantry-licence-cli-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Runs the tool and collects what it printed. */
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runLicenceCli(
    argv,
    (line) => out.push(line),
    (line) => err.push(line),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function keygen(name = 'vendor') {
  const result = await cli('keygen', '--out', dir, '--name', name);
  expect(result.code, result.err).toBe(0);
  const publicBase64 = (await readFile(path.join(dir, `${name}.public.txt`), 'utf8')).trim();
  return { ...result, publicBase64, privateFile: path.join(dir, `${name}.private.pem`) };
}

/** `issue` printing the file: its text as written to a file (one final newline). */
async function issued(...args: string[]) {
  const result = await cli('issue', ...args);
  expect(result.code, result.err).toBe(0);
  return `${result.out}\n`;
}

describe('licence keygen', () => {
  it('writes a private key only its owner can read and the public key, and prints how to trust it', async () => {
    const { out, publicBase64, privateFile } = await keygen();
    expect((await stat(privateFile)).mode & 0o777).toBe(0o600);
    expect(publicBase64).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const privateKey = privateKeyFromPem(await readFile(privateFile, 'utf8'));
    expect(privateKey.asymmetricKeyType).toBe('ed25519');
    const keyId = keyIdOf(publicKeyFromBase64(publicBase64));
    expect(out).toContain(`public key:  ${publicBase64}`);
    expect(out).toContain(`key id:      ${keyId}`);
    expect(out).toContain('GANTRY_LICENCE_PUBLIC_KEYS');
    expect(out).not.toContain('PRIVATE KEY');
    // The public key is the private key's half.
    const text = await issued('--key', privateFile, '--machine', TEST_MACHINE_CODE);
    expect(verifyLicenceText(text, trustedKeys([publicBase64], false), false).keyId).toBe(keyId);
  });

  it('refuses to overwrite an existing key pair', async () => {
    const first = await keygen();
    const before = await readFile(first.privateFile, 'utf8');
    const again = await cli('keygen', '--out', dir, '--name', 'vendor');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^licence keygen: .*vendor\.private\.pem already exists/);
    expect(await readFile(first.privateFile, 'utf8')).toBe(before);
    expect((await readFile(path.join(dir, 'vendor.public.txt'), 'utf8')).trim()).toBe(first.publicBase64);
    // Only the public half left from an earlier pair: nothing is written, not even a private key.
    await rm(first.privateFile);
    const half = await cli('keygen', '--out', dir, '--name', 'vendor');
    expect(half.code).toBe(1);
    expect(half.err).toContain('vendor.public.txt already exists');
    await expect(stat(first.privateFile)).rejects.toThrow(/ENOENT/);
    // Another name in the same folder is a new pair.
    const other = await keygen('second');
    expect(other.publicBase64).not.toBe(first.publicBase64);
  });
});

describe('licence issue', () => {
  it('signs with the development key: the options become the document', async () => {
    const text = await issued(
      '--key',
      'dev',
      '--machine',
      TEST_MACHINE_CODE,
      '--id',
      'L-42',
      '--licensee',
      'ACME 示例',
      '--issued-at',
      '2030-01-01T08:00:00.000Z',
      '--start',
      '2030-02-01',
      '--days',
      '30',
      '--users',
      '5',
      '--tables',
      '7',
      '--points',
      '900',
      '--screens',
      '3',
      '--features',
      'gis, Oauth,,BI',
    );
    const verified = verifyLicenceText(text, trustedKeys([], false), false);
    expect(verified.development).toBe(true);
    expect(verified.keyId).toBe(DEV_KEY_ID);
    expect(verified.document).toEqual({
      format: LICENCE_FORMAT,
      id: 'L-42',
      product: PLATFORM_PRODUCT,
      machineCode: TEST_MACHINE_CODE,
      issuedAt: '2030-01-01T08:00:00.000Z',
      licensee: 'ACME 示例',
      grant: {
        startTime: '2030-02-01',
        validityPeriod: 30,
        userCount: 5,
        flow: { tableCount: 7 },
        dataGathering: { point: 900 },
        visual: { dashboardCount: 3 },
        features: ['gis', 'Oauth', 'BI'],
      },
    });
    // In production the development key is refused.
    expect(() => verifyLicenceText(text, trustedKeys([], true), true)).toThrow(AppError);
  });

  it('defaults: a random id, today, 365 days, 100 users and tables, no features, no licensee', async () => {
    const { document } = verifyLicenceText(
      await issued('--key', 'dev', '--machine', TEST_MACHINE_CODE, '--product', 'other-product'),
      trustedKeys([], false),
      false,
    );
    expect(document.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(document.product).toBe('other-product');
    expect(document.licensee).toBeUndefined();
    expect(document.grant).toMatchObject({
      validityPeriod: 365,
      userCount: 100,
      flow: { tableCount: 100 },
      features: [],
    });
    expect(document.grant.startTime).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Date.parse(document.issuedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('signs with a keygen key, trusted only once that key is given', async () => {
    const { privateFile, publicBase64 } = await keygen();
    const out = path.join(dir, 'acme.lic');
    const result = await cli(
      'issue',
      '--key',
      privateFile,
      '--machine',
      TEST_MACHINE_CODE,
      '--id',
      'L-v',
      '--out',
      out,
    );
    expect(result.code, result.err).toBe(0);
    expect(result.out).toBe(`licence L-v for ${TEST_MACHINE_CODE} written to ${out}`);
    const text = await readFile(out, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const verified = verifyLicenceText(text, trustedKeys([publicBase64], true), true);
    expect(verified).toMatchObject({ development: false, keyId: keyIdOf(publicKeyFromBase64(publicBase64)) });
    let refused: unknown;
    try {
      verifyLicenceText(text, trustedKeys([], false), false);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('licenceUntrusted');
  });

  it('reads a whole grant from --grant (options override it) and the machine and company from --request', async () => {
    const grantFile = path.join(dir, 'grant.json');
    await writeFile(
      grantFile,
      JSON.stringify({
        startTime: '2031-03-01',
        validityPeriod: 90,
        userCount: 50,
        flow: { tableCount: 60, flowCount: 4 },
        eventCount: 8,
        features: ['kafka'],
      }),
    );
    const requestFile = path.join(dir, 'request.json');
    await writeFile(
      requestFile,
      JSON.stringify({
        format: 'gantry-licence-request/1',
        machineCode: OTHER_CODE,
        company: 'Request Co',
        contact: 'Li',
        measures: { userCount: 1 },
      }),
    );
    const { document } = verifyLicenceText(
      await issued('--key', 'dev', '--grant', grantFile, '--request', requestFile, '--users', '70'),
      trustedKeys([], false),
      false,
    );
    expect(document.machineCode).toBe(OTHER_CODE);
    expect(document.licensee).toBe('Request Co');
    expect(document.grant).toEqual({
      startTime: '2031-03-01',
      validityPeriod: 90,
      userCount: 70,
      flow: { tableCount: 60, flowCount: 4 },
      eventCount: 8,
      features: ['kafka'],
    });
    // --machine and --licensee win over the request.
    const { document: overridden } = verifyLicenceText(
      await issued('--key', 'dev', '--request', requestFile, '--machine', TEST_MACHINE_CODE, '--licensee', 'Me'),
      trustedKeys([], false),
      false,
    );
    expect([overridden.machineCode, overridden.licensee]).toEqual([TEST_MACHINE_CODE, 'Me']);
  });

  it('exits 1 with a message on a bad machine code, a missing key, a bad number or grant', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--key', 'dev', '--machine', 'abc'], /--machine CODE is required/],
      [['--key', 'dev', '--machine', TEST_MACHINE_CODE.toLowerCase()], /--machine CODE is required/],
      [['--key', 'dev'], /--machine CODE is required/],
      [['--machine', TEST_MACHINE_CODE], /--key is required/],
      [['--key', path.join(dir, 'missing.pem'), '--machine', TEST_MACHINE_CODE], /ENOENT/],
      [['--key', 'dev', '--machine', TEST_MACHINE_CODE, '--days', '1.5'], /--days must be a whole number/],
      [['--key', 'dev', '--machine', TEST_MACHINE_CODE, '--users=-3'], /--users must be a whole number/],
      [['--key', 'dev', '--machine', TEST_MACHINE_CODE, '--users', '0'], /the grant is not valid: userCount/],
      [['--key', 'dev', '--machine', TEST_MACHINE_CODE, '--start', '2030-02-30'], /the grant is not valid: startTime/],
      [['--key', 'dev', '--machine', TEST_MACHINE_CODE, '--grant', path.join(dir, 'none.json')], /ENOENT/],
      [['--key', 'dev', '--machine', TEST_MACHINE_CODE, '--colour', 'red'], /Unknown option '--colour'/],
    ];
    for (const [args, message] of cases) {
      const result = await cli('issue', ...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.err, args.join(' ')).toMatch(/^licence issue: /);
      expect(result.err, args.join(' ')).toMatch(message);
      expect(result.out, args.join(' ')).toBe('');
    }
  });
});

describe('licence inspect', () => {
  it('shows a valid file and the key that signed it', async () => {
    const file = path.join(dir, 'dev.lic');
    expect(
      (await cli('issue', '--key', 'dev', '--machine', TEST_MACHINE_CODE, '--id', 'L-i', '--out', file)).code,
    ).toBe(0);
    const result = await cli('inspect', file);
    expect(result.code).toBe(0);
    expect(result.out).toContain('"id": "L-i"');
    expect(result.out).toContain(`signature: valid (key ${DEV_KEY_ID}, DEVELOPMENT key)`);

    const { privateFile, publicBase64 } = await keygen();
    const vendorFile = path.join(dir, 'vendor.lic');
    await cli('issue', '--key', privateFile, '--machine', TEST_MACHINE_CODE, '--out', vendorFile);
    const untrusted = await cli('inspect', vendorFile);
    expect(untrusted.code).toBe(1);
    expect(untrusted.out).toBe('signature: NOT valid (licenceUntrusted)');
    const trusted = await cli('inspect', vendorFile, '--trust', publicBase64);
    expect(trusted.code).toBe(0);
    expect(trusted.out).toContain(`signature: valid (key ${keyIdOf(publicKeyFromBase64(publicBase64))})`);
    expect(trusted.out).not.toContain('DEVELOPMENT');
    // The development key given by hand under another base64 spelling is still called so.
    const spelling = `${DEVELOPMENT_PUBLIC_KEY.slice(0, 42)}${DEVELOPMENT_PUBLIC_KEY[42] === 'l' ? 'm' : 'l'}=`;
    expect((await cli('inspect', file, '--trust', spelling)).out).toContain('DEVELOPMENT key)');
    expect((await cli('inspect', file, '--trust', 'short')).code).toBe(1);
  });

  it('exits 1 for a changed file, a file that is not a licence, or no file', async () => {
    const file = path.join(dir, 'dev.lic');
    await cli('issue', '--key', 'dev', '--machine', TEST_MACHINE_CODE, '--users', '10', '--out', file);
    await writeFile(file, (await readFile(file, 'utf8')).replace('"userCount": 10', '"userCount": 99'));
    const changed = await cli('inspect', file);
    expect(changed).toEqual({
      code: 1,
      out: 'signature: NOT valid (licenceSignature)',
      err: 'licence inspect: the licence file does not verify',
    });
    await writeFile(file, 'hello');
    expect((await cli('inspect', file)).out).toBe('signature: NOT valid (licenceMalformed)');
    const none = await cli('inspect');
    expect([none.code, none.err]).toEqual([1, 'licence inspect: inspect needs a licence file']);
    expect((await cli('inspect', path.join(dir, 'absent.lic'))).code).toBe(1);
  });
});

describe('licence machine and usage', () => {
  it("prints this machine's code", async () => {
    const result = await cli('machine');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(MACHINE_CODE_PATTERN);
    expect(result.out).toBe(machineCodeOf(await readMachineIdentity()));
  });

  it('exits 2 with the usage on an unknown command, 0 for help', async () => {
    const unknown = await cli('sign');
    expect(unknown.code).toBe(2);
    expect(unknown.out).toBe('');
    expect(unknown.err).toContain("The vendor's licence tool.");
    for (const help of [[], ['help'], ['--help']]) {
      const result = await cli(...help);
      expect(result.code, help.join(' ')).toBe(0);
      expect(result.out).toContain('npm run licence -- keygen');
      expect(result.err).toBe('');
    }
  });
});

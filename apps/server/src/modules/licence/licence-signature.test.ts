/**
 * Signing and verification of licence files (design D7), and the machine binding and validity
 * window the platform licence service adds on top, at the unit level (no database, no HTTP).
 */
import { createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import {
  canonicalJson,
  ERRORS,
  type ErrorCode,
  type Grant,
  LICENCE_FILE_MAX_BYTES,
  LICENCE_FORMAT,
  type LicenceDocument,
  PLATFORM_PRODUCT,
  translate,
} from '@gantry/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import { TEST_MACHINE, TEST_MACHINE_CODE } from '../../test/test-app.js';
import type { AuditService } from '../audit/audit.service.js';
import type { LicenceRepository, PlatformRecord } from './licence.repository.js';
import type { LicenceHistoryRepository } from './licence-history.repository.js';
import {
  keyIdOf,
  privateKeyFromPem,
  publicKeyFromBase64,
  rawPublicKey,
  signLicence,
  type TrustedKey,
  verifyLicenceText,
} from './licence-signature.js';
import { machineCodeOf } from './machine-identity.js';
import { PlatformLicenceService } from './platform-licence.service.js';
import { DEVELOPMENT_PUBLIC_KEY, developmentPrivateKey, trustedKeys } from './trusted-keys.js';

const DEV = developmentPrivateKey();
const DEV_TRUST = trustedKeys([], false);
const DEV_KEY_ID = keyIdOf(publicKeyFromBase64(DEVELOPMENT_PUBLIC_KEY));
const OTHER_MACHINE_CODE = machineCodeOf({ ...TEST_MACHINE, systemUuid: '9b2f0e4c-1111-2222-3333-444455556666' });

/** Codes a licence file can be refused with by `verifyLicenceText`. */
const FILE_REFUSALS: ReadonlySet<ErrorCode> = new Set([
  'licenceMalformed',
  'licenceTooLarge',
  'licenceSignature',
  'licenceUntrusted',
  'licenceDevelopment',
]);

function document(overrides: Partial<LicenceDocument> = {}, grant: Partial<Grant> = {}): LicenceDocument {
  return {
    format: LICENCE_FORMAT,
    id: 'L-0001',
    product: PLATFORM_PRODUCT,
    machineCode: TEST_MACHINE_CODE,
    issuedAt: '2030-01-01T00:00:00.000Z',
    licensee: 'ACME 示例',
    grant: {
      validityPeriod: 365,
      startTime: '2030-01-01',
      userCount: 100,
      flow: { tableCount: 50 },
      dataGathering: { point: 1000 },
      features: ['gis', 'Oauth'],
      ...grant,
    },
    ...overrides,
  };
}

function vendorKeyPair(): { privateKey: KeyObject; publicBase64: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicBase64: rawPublicKey(publicKey).toString('base64') };
}

/** The AppError `verifyLicenceText` refuses `text` with; fails the test if it is accepted. */
function refusal(text: string, trusted: readonly TrustedKey[] = DEV_TRUST, production = false): AppError {
  try {
    verifyLicenceText(text, trusted, production);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(text.slice(0, 80))}…`);
}

/** A file's text with its document, key id and signature written by hand (canonical layout). */
function handMade(doc: unknown, signature: string, keyId = DEV_KEY_ID): string {
  return `${JSON.stringify(JSON.parse(canonicalJson({ document: doc, keyId, signature })), null, 2)}\n`;
}

/** A valid Ed25519 signature by the development key over any document. */
function devSignature(doc: unknown): string {
  return sign(null, Buffer.from(canonicalJson(doc), 'utf8'), DEV).toString('base64');
}

describe('signing', () => {
  it('writes the canonical text: sorted keys, two-space indentation, one final newline', () => {
    const text = signLicence(document(), DEV);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
    const file = JSON.parse(text) as { document: Record<string, unknown>; keyId: string; signature: string };
    expect(Object.keys(file)).toEqual(['document', 'keyId', 'signature']);
    expect(Object.keys(file.document)).toEqual([...Object.keys(file.document)].sort());
    expect(text).toContain('\n  "document": {\n    "format": "gantry-licence/1",');
    expect(file.keyId).toBe(DEV_KEY_ID);
    // The signature is over the compact canonical JSON of the document, checkable without our code.
    const ok = verify(
      null,
      Buffer.from(canonicalJson(file.document), 'utf8'),
      publicKeyFromBase64(DEVELOPMENT_PUBLIC_KEY),
      Buffer.from(file.signature, 'base64'),
    );
    expect(ok).toBe(true);
  });

  it('refuses to sign a document that breaks the schema', () => {
    expect(() => signLicence(document({ machineCode: 'not-a-code' }), DEV)).toThrow();
    expect(() => signLicence(document({}, { userCount: 0 }), DEV)).toThrow();
    expect(() => signLicence({ ...document(), extra: 1 } as LicenceDocument, DEV)).toThrow();
  });

  it('round-trips the key helpers: raw base64 public key, key id, PEM private key', () => {
    const { privateKey, publicBase64 } = vendorKeyPair();
    expect(publicBase64).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const publicKey = publicKeyFromBase64(publicBase64);
    expect(rawPublicKey(publicKey).toString('base64')).toBe(publicBase64);
    expect(keyIdOf(publicKey)).toMatch(/^[0-9a-f]{16}$/);
    expect(keyIdOf(publicKey)).not.toBe(DEV_KEY_ID);
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(privateKeyFromPem(pem).asymmetricKeyType).toBe('ed25519');
    expect(() => publicKeyFromBase64(Buffer.alloc(31).toString('base64'))).toThrow(/32 bytes/);
    const x25519 = generateKeyPairSync('x25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => privateKeyFromPem(x25519)).toThrow(/not an Ed25519/);
    // The shipped development private key is the half of the built-in public key.
    expect(keyIdOf(createPublicKey(DEV))).toBe(DEV_KEY_ID);
  });
});

describe('verification', () => {
  const text = signLicence(document(), DEV);

  it('accepts the file as signed and says it was signed with the development key', () => {
    const verified = verifyLicenceText(text, DEV_TRUST, false);
    expect(verified.document).toEqual(document());
    expect(verified.keyId).toBe(DEV_KEY_ID);
    expect(verified.development).toBe(true);
  });

  it('accepts a file signed by a configured vendor key, in production too, and not as development', () => {
    const vendor = vendorKeyPair();
    const signed = signLicence(document(), vendor.privateKey);
    expect(refusal(signed, DEV_TRUST).code).toBe('licenceUntrusted');
    const verified = verifyLicenceText(signed, trustedKeys([vendor.publicBase64], true), true);
    expect(verified.development).toBe(false);
    expect(verified.document.id).toBe('L-0001');
  });

  it('refuses a file signed by a key it was not given, naming the key id', () => {
    const vendor = vendorKeyPair();
    const error = refusal(signLicence(document(), vendor.privateKey));
    expect(error.code).toBe('licenceUntrusted');
    expect(error.options.params).toEqual({ keyId: keyIdOf(publicKeyFromBase64(vendor.publicBase64)) });
    expect(translate(ERRORS.licenceUntrusted.message, 'en', error.options.params)).toContain(
      keyIdOf(publicKeyFromBase64(vendor.publicBase64)),
    );
  });

  it('refuses the development key in production even though it is listed', () => {
    const production = trustedKeys([], true);
    expect(production.map((k) => [k.keyId, k.development])).toEqual([[DEV_KEY_ID, true]]);
    expect(refusal(text, production, true).code).toBe('licenceDevelopment');
  });

  it('refuses a tampered document: one byte of a value changed', () => {
    const tampered = text.replace('"userCount": 100', '"userCount": 900');
    expect(tampered).not.toBe(text);
    expect(refusal(tampered).code).toBe('licenceSignature');
    const otherMachine = text.replace(TEST_MACHINE_CODE, OTHER_MACHINE_CODE);
    expect(refusal(otherMachine).code).toBe('licenceSignature');
  });

  it('refuses a changed signature byte, including the unused bits of its last base64 character', () => {
    const file = JSON.parse(text) as { signature: string };
    const sig = file.signature;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const at = (i: number, c: string) => text.replace(sig, `${sig.slice(0, i)}${c}${sig.slice(i + 1)}`);
    const first = sig[0] === 'A' ? 'B' : 'A';
    expect(refusal(at(0, first)).code).toBe('licenceSignature');
    // Character 86 of an 88-character signature carries 2 bits of the last byte and 4 unused bits:
    // every other character there decodes to the same 64 bytes only if the decoder ignores them.
    const last = alphabet.indexOf(sig[85] ?? '');
    for (let other = 0; other < 64; other++) {
      if (other === last) continue;
      expect(refusal(at(85, alphabet[other] ?? '')).code, `last character ${alphabet[other]}`).toBe('licenceSignature');
    }
  });

  it('refuses a file whose text is not exactly the canonical form: spacing, key order, line ends', () => {
    const cases: Array<[string, string]> = [
      ['one space more', text.replace('"userCount": 100', '"userCount":  100')],
      ['compact JSON', JSON.stringify(JSON.parse(text))],
      ['no final newline', text.slice(0, -1)],
      ['two final newlines', `${text}\n`],
      ['CRLF line ends', text.replaceAll('\n', '\r\n')],
      ['tab indentation', text.replaceAll('  ', '\t')],
      ['leading space', ` ${text}`],
      ['an escaped character', text.replace('"L-0001"', '"\\u004c-0001"')],
      ['a number written differently', text.replace('"userCount": 100', '"userCount": 1e2')],
    ];
    const file = JSON.parse(text) as { document: Record<string, unknown>; keyId: string; signature: string };
    const reordered = { ...file, document: { product: file.document.product, ...file.document } };
    cases.push(['document keys reordered', `${JSON.stringify(reordered, null, 2)}\n`]);
    cases.push([
      'envelope keys reordered',
      `${JSON.stringify({ signature: file.signature, keyId: file.keyId, document: file.document }, null, 2)}\n`,
    ]);
    cases.push(['a duplicate key', text.replace('"id": "L-0001",', '"id": "L-0002",\n    "id": "L-0001",')]);
    for (const [name, changed] of cases) {
      expect(changed, name).not.toBe(text);
      expect(refusal(changed).code, name).toBe('licenceSignature');
    }
  });

  it('refuses malformed files: not JSON, not an object, wrong envelope, extra keys', () => {
    const file = JSON.parse(text) as { document: unknown; keyId: string; signature: string };
    const cases: Array<[string, string]> = [
      ['empty', ''],
      ['not JSON', 'this is not a licence'],
      ['truncated', text.slice(0, 100)],
      ['an array', '[1, 2, 3]\n'],
      ['a string', '"licence"\n'],
      ['null', 'null\n'],
      ['a number', '42\n'],
      ['an empty object', '{}\n'],
      ['no document', `${JSON.stringify({ keyId: file.keyId, signature: file.signature }, null, 2)}\n`],
      ['no signature', `${JSON.stringify({ document: file.document, keyId: file.keyId }, null, 2)}\n`],
      ['an extra envelope key', `${JSON.stringify({ ...file, comment: 'x' }, null, 2)}\n`],
      ['an upper-case key id', text.replace(file.keyId, file.keyId.toUpperCase())],
      ['a short signature', text.replace(file.signature, file.signature.slice(4))],
      ['a signature that is not base64', text.replace(file.signature, `${'!'.repeat(86)}==`)],
    ];
    for (const [name, changed] of cases) expect(refusal(changed).code, name).toBe('licenceMalformed');
  });

  it('refuses, as malformed, a correctly signed document that fails the schema', () => {
    const cases: Array<[string, unknown]> = [
      ['an extra document key', { ...document(), note: 'hello' }],
      ['another format', { ...document(), format: 'gantry-licence/2' }],
      ['a bad machine code', { ...document(), machineCode: 'abc' }],
      ['a zero user count', { ...document(), grant: { ...document().grant, userCount: 0 } }],
      ['no grant', { ...document(), grant: undefined }],
      ['an impossible start date', { ...document(), grant: { ...document().grant, startTime: '2030-02-30' } }],
      ['a string', 'just text'],
    ];
    for (const [name, doc] of cases) {
      const signed = handMade(doc, devSignature(doc));
      expect(refusal(signed).code, name).toBe('licenceMalformed');
    }
    // The same hand-made layout with a schema-valid document is accepted: the refusals above are the schema's.
    expect(verifyLicenceText(handMade(document(), devSignature(document())), DEV_TRUST, false).document.id).toBe(
      'L-0001',
    );
  });

  it('refuses a document nested too deep to canonicalise as malformed, not with a crash', () => {
    const depth = 30_000;
    const deep = `{"document":${'['.repeat(depth)}${']'.repeat(depth)},"keyId":"${DEV_KEY_ID}","signature":"${'A'.repeat(86)}=="}`;
    expect(Buffer.byteLength(deep)).toBeLessThanOrEqual(LICENCE_FILE_MAX_BYTES);
    expect(refusal(deep).code).toBe('licenceMalformed');
  });

  it(`refuses a file over ${LICENCE_FILE_MAX_BYTES} bytes, counting UTF-8 bytes, not characters`, () => {
    expect(refusal(`${text}${' '.repeat(LICENCE_FILE_MAX_BYTES)}`).code).toBe('licenceTooLarge');
    const chinese = '授'.repeat(Math.ceil(LICENCE_FILE_MAX_BYTES / 3) + 1);
    expect(chinese.length).toBeLessThan(LICENCE_FILE_MAX_BYTES);
    expect(refusal(chinese).code).toBe('licenceTooLarge');
    // At the limit it is read (and refused for what it is).
    expect(refusal(' '.repeat(LICENCE_FILE_MAX_BYTES)).code).toBe('licenceMalformed');
  });

  it('refuses every single-character change at every position of a small signed file', () => {
    const small = signLicence(
      {
        format: LICENCE_FORMAT,
        id: 'S1',
        product: PLATFORM_PRODUCT,
        machineCode: TEST_MACHINE_CODE,
        issuedAt: '2030-01-01T00:00:00Z',
        grant: { validityPeriod: 9, startTime: '2030-01-01', userCount: 1, flow: { tableCount: 1 }, features: [] },
      },
      DEV,
    );
    expect(verifyLicenceText(small, DEV_TRUST, false).document.id).toBe('S1');
    const replacements = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), '\n', '\t', 'é', '授'];
    let tried = 0;
    for (let i = 0; i < small.length; i++) {
      for (const c of replacements) {
        if (c === small[i]) continue;
        const changed = `${small.slice(0, i)}${c}${small.slice(i + 1)}`;
        let code: ErrorCode | undefined;
        try {
          verifyLicenceText(changed, DEV_TRUST, false);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          code = error.code;
        }
        if (code === undefined || !FILE_REFUSALS.has(code)) {
          expect.fail(`position ${i} (${JSON.stringify(small[i])} → ${JSON.stringify(c)}) was accepted`);
        }
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(small.length * 90);
    // About 40,000 signature checks: 5–10 s alone, over 45 s on a 2-core machine shared with other work.
  }, 180_000);

  it('refuses every single-bit flip of every byte of a small signed file', () => {
    const small = signLicence(document({ id: 'B1', licensee: '示例' }), DEV);
    const bytes = Buffer.from(small, 'utf8');
    const decoder = new TextDecoder('utf-8');
    for (let i = 0; i < bytes.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const flipped = Buffer.from(bytes);
        flipped[i] = (flipped[i] ?? 0) ^ (1 << bit);
        const error = refusal(decoder.decode(flipped));
        if (!FILE_REFUSALS.has(error.code)) expect.fail(`byte ${i} bit ${bit}: ${error.code}`);
      }
    }
  });

  it('property: any valid document round-trips, and any one changed character is refused', () => {
    const grantArb = fc.record({
      validityPeriod: fc.integer({ min: 1, max: 9_999_999 }),
      startTime: fc
        .integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) })
        .map((ms) => new Date(ms).toISOString().slice(0, 10)),
      userCount: fc.integer({ min: 1, max: 9_999_999 }),
      flow: fc.record({ tableCount: fc.integer({ min: 1, max: 99_999_999 }) }),
      features: fc.uniqueArray(fc.constantFrom('gis', 'Oauth', 'DST', 'DI', 'AI', 'BI', 'kafka'), { maxLength: 7 }),
    });
    const docArb = fc.record({
      id: fc.string({ minLength: 1, maxLength: 64 }),
      licensee: fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
      grant: grantArb,
    });
    fc.assert(
      fc.property(docArb, fc.nat(), fc.string({ minLength: 1, maxLength: 1 }), (parts, position, replacement) => {
        const doc: LicenceDocument = {
          format: LICENCE_FORMAT,
          product: PLATFORM_PRODUCT,
          machineCode: TEST_MACHINE_CODE,
          issuedAt: '2030-01-01T00:00:00.000Z',
          id: parts.id,
          ...(parts.licensee === undefined ? {} : { licensee: parts.licensee }),
          grant: parts.grant,
        };
        const signed = signLicence(doc, DEV);
        expect(verifyLicenceText(signed, DEV_TRUST, false).document).toEqual(doc);
        const i = position % signed.length;
        fc.pre(signed[i] !== replacement);
        const changed = `${signed.slice(0, i)}${replacement}${signed.slice(i + 1)}`;
        expect(FILE_REFUSALS.has(refusal(changed).code)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('trusted keys and configuration', () => {
  it('trusts the development key outside production, and configured keys everywhere', () => {
    const vendor = vendorKeyPair();
    const keys = trustedKeys([` ${vendor.publicBase64} `], false);
    expect(keys.map((k) => k.development)).toEqual([false, true]);
    expect(keys[0]?.keyId).toBe(keyIdOf(publicKeyFromBase64(vendor.publicBase64)));
    expect(trustedKeys([DEVELOPMENT_PUBLIC_KEY], false)).toHaveLength(1);
    expect(() => trustedKeys([DEVELOPMENT_PUBLIC_KEY], true)).toThrow(/development licence key/);
    expect(() => trustedKeys(['AAAA'], false)).toThrow(/32 bytes/);
  });

  it('recognises the development key by its bytes, whatever base64 spelling configures it', () => {
    // 32 bytes in 44 base64 characters leave 2 bits of the last letter unused: k, l, m, n all decode alike.
    const spellings = ['k', 'l', 'm', 'n'].map((c) => `${DEVELOPMENT_PUBLIC_KEY.slice(0, 42)}${c}=`);
    expect(spellings).toContain(DEVELOPMENT_PUBLIC_KEY);
    const devSigned = signLicence(document(), DEV);
    for (const spelling of spellings) {
      expect(() => trustedKeys([spelling], true), spelling).toThrow(/development licence key/);
      const keys = trustedKeys([spelling], false);
      expect(
        keys.map((k) => [k.keyId, k.development]),
        spelling,
      ).toEqual([[DEV_KEY_ID, true]]);
      expect(verifyLicenceText(devSigned, keys, false).development).toBe(true);
    }
  });

  it('refuses to start in production with the development public key configured', () => {
    const vendor = vendorKeyPair();
    const base = { GANTRY_DATA_DIR: '/tmp/gantry-config-test' };
    expect(() =>
      loadConfig({ ...base, NODE_ENV: 'production', GANTRY_LICENCE_PUBLIC_KEYS: DEVELOPMENT_PUBLIC_KEY }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig({
        ...base,
        NODE_ENV: 'production',
        GANTRY_LICENCE_PUBLIC_KEYS: `${vendor.publicBase64},${DEVELOPMENT_PUBLIC_KEY}`,
      }),
    ).toThrow(/development key cannot be trusted in production/);
    expect(
      loadConfig({ ...base, NODE_ENV: 'production', GANTRY_LICENCE_PUBLIC_KEYS: vendor.publicBase64 })
        .licencePublicKeys,
    ).toEqual([vendor.publicBase64]);
    expect(
      loadConfig({ ...base, NODE_ENV: 'development', GANTRY_LICENCE_PUBLIC_KEYS: DEVELOPMENT_PUBLIC_KEY })
        .licencePublicKeys,
    ).toEqual([DEVELOPMENT_PUBLIC_KEY]);
    expect(() => loadConfig({ ...base, GANTRY_LICENCE_PUBLIC_KEYS: 'not-a-key' })).toThrow(ConfigError);
    // Another base64 spelling of the same 32 bytes (the last character's unused bits set) is the same key.
    const respelled = `${DEVELOPMENT_PUBLIC_KEY.slice(0, 42)}l=`;
    expect(Buffer.from(respelled, 'base64').equals(Buffer.from(DEVELOPMENT_PUBLIC_KEY, 'base64'))).toBe(true);
    expect(respelled).not.toBe(DEVELOPMENT_PUBLIC_KEY);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', GANTRY_LICENCE_PUBLIC_KEYS: respelled })).toThrow(
      ConfigError,
    );
  });
});

/**
 * Machine binding and the validity window: PlatformLicenceService.check with stubbed repositories
 * (an installed licence or none, nothing allocated) and a fixed clock.
 */
describe('machine binding, product and validity (platform licence service)', () => {
  const NOW = new Date(2030, 0, 15, 12, 0, 0);
  const TODAY = '2030-01-15';

  function service(installed?: PlatformRecord, trusted: readonly TrustedKey[] = DEV_TRUST, production = false) {
    const repo = {
      platform: async () => installed,
      allocatedByPlatform: async () => ({}),
    } as unknown as LicenceRepository;
    return new PlatformLicenceService({
      db: {} as never,
      repo,
      history: {} as LicenceHistoryRepository,
      audit: {} as AuditService,
      clock: () => NOW,
      trusted,
      production,
      machine: async () => TEST_MACHINE,
    });
  }

  const signed = (overrides: Partial<LicenceDocument> = {}, grant: Partial<Grant> = {}) =>
    signLicence(document(overrides, { startTime: TODAY, validityPeriod: 30, ...grant }), DEV);

  async function checkRefusal(text: string): Promise<AppError> {
    try {
      await service().check(text);
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('accepted');
  }

  it('accepts a licence for this machine, this product, valid today', async () => {
    const result = await service().check(signed());
    expect(result.applied).toBe(false);
    expect(result.licence).toMatchObject({
      machineCode: TEST_MACHINE_CODE,
      product: PLATFORM_PRODUCT,
      development: true,
    });
    expect(result.changes.first).toBe(true);
  });

  it('refuses another machine, another product, an ended and a future licence, each with its reason', async () => {
    const other = await checkRefusal(signed({ machineCode: OTHER_MACHINE_CODE }));
    expect(other.code).toBe('licenceMachine');
    expect(other.options.params).toEqual({ licensed: OTHER_MACHINE_CODE, machine: TEST_MACHINE_CODE });

    const product = await checkRefusal(signed({ product: 'platform-other' }));
    expect(product.code).toBe('licenceProduct');
    expect(product.options.params).toEqual({ product: 'platform-other', expected: PLATFORM_PRODUCT });

    // Started 30 days ago for 30 days: today is its first day not covered.
    const ended = await checkRefusal(signed({}, { startTime: '2029-12-16', validityPeriod: 30 }));
    expect(ended.code).toBe('licenceExpired');
    expect(ended.options.params).toEqual({ date: TODAY });
    // One day more and today is its last day.
    await expect(service().check(signed({}, { startTime: '2029-12-16', validityPeriod: 31 }))).resolves.toBeTruthy();

    const future = await checkRefusal(signed({}, { startTime: '2030-01-16' }));
    expect(future.code).toBe('licenceNotYetValid');
    expect(future.options.params).toEqual({ date: '2030-01-16' });
  });

  it('says why the installed licence grants nothing: other machine, ended, not yet valid, untrusted', async () => {
    const record = (text: string): PlatformRecord => ({
      grant: (JSON.parse(text) as { document: LicenceDocument }).document.grant,
      text,
      installedAt: NOW,
    });
    const states = async (text: string, trusted = DEV_TRUST, production = false) =>
      (await service(record(text), trusted, production).status()).state;
    expect(await states(signed())).toBe('valid');
    expect(await states(signed({ machineCode: OTHER_MACHINE_CODE }))).toBe('otherMachine');
    expect(await states(signed({}, { startTime: '2029-12-16', validityPeriod: 30 }))).toBe('expired');
    expect(await states(signed({}, { startTime: '2030-02-01' }))).toBe('notYetValid');
    expect(await states(signed(), trustedKeys([vendorKeyPair().publicBase64], true), true)).toBe('untrusted');
    expect(await states(signLicence(document({}, { startTime: TODAY }), vendorKeyPair().privateKey))).toBe('untrusted');
    const noText = await service({ ...record(signed()), text: null }).status();
    expect(noText.state).toBe('untrusted');
    expect((await service().status()).state).toBe('missing');
  });

  it('reminds when fewer than 14 days remain, not at 14', async () => {
    const info = async (validityPeriod: number) => {
      const text = signed({}, { validityPeriod });
      const grant = (JSON.parse(text) as { document: LicenceDocument }).document.grant;
      const result = await service({ grant, text, installedAt: NOW }).info();
      return [result?.remainingDays, result?.reminder];
    };
    expect(await info(15)).toEqual([15, false]);
    expect(await info(14)).toEqual([14, false]);
    expect(await info(13)).toEqual([13, true]);
    expect(await info(1)).toEqual([1, true]);
  });

  it('reads the machine identity again after a failed read instead of keeping the failure', async () => {
    let reads = 0;
    const flaky = new PlatformLicenceService({
      db: {} as never,
      repo: {} as LicenceRepository,
      history: {} as LicenceHistoryRepository,
      audit: {} as AuditService,
      clock: () => NOW,
      trusted: DEV_TRUST,
      production: false,
      machine: async () => {
        reads += 1;
        if (reads === 1) throw new Error('dmidecode failed');
        return TEST_MACHINE;
      },
    });
    await expect(flaky.machine()).rejects.toThrow('dmidecode failed');
    expect((await flaky.machine()).machineCode).toBe(TEST_MACHINE_CODE);
    expect((await flaky.machine()).machineCode).toBe(TEST_MACHINE_CODE);
    expect(reads).toBe(2);
  });
});

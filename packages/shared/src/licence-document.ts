import { z } from 'zod';
import { FEATURE_KEYS, type FeatureKey, grantSchema } from './licence.js';

/**
 * The signed licence file (design D7). The vendor signs a licence *document* with Ed25519; the file
 * carries the document, the id of the signing key and the signature. Everything here is free of
 * crypto so that the console can read a file's text; signing and verifying live on the server.
 *
 * The file's text is canonical: keys sorted at every level, two-space indentation, one final
 * newline. The server refuses a file whose text is not exactly the canonical form of what it
 * parses to, so that changing any single byte of a file makes it invalid.
 */

/** The product that licenses the console itself (console.md §6). */
export const PLATFORM_PRODUCT = 'platform-spm';
export const LICENCE_FORMAT = 'gantry-licence/1';
/** A licence file is small; anything bigger is not one. */
export const LICENCE_FILE_MAX_BYTES = 64 * 1024;

/** Five groups of five Crockford base-32 characters (125 bits of a SHA-256 of the machine identity). */
export const MACHINE_CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/;

export const licenceDocumentSchema = z
  .object({
    format: z.literal(LICENCE_FORMAT),
    /** The licence's own serial, chosen by the vendor. */
    id: z.string().min(1).max(64),
    product: z.string().min(1).max(64),
    machineCode: z.string().regex(MACHINE_CODE_PATTERN),
    issuedAt: z.iso.datetime(),
    licensee: z.string().max(200).optional(),
    /** validityPeriod, startTime, the measures and `features` (legacy 'BI' = DST + DI). */
    grant: grantSchema,
  })
  .strict();
export type LicenceDocument = z.infer<typeof licenceDocumentSchema>;

export const licenceFileSchema = z
  .object({
    document: z.unknown(),
    /** First 16 hex digits of the SHA-256 of the signing public key (raw 32 bytes). */
    keyId: z.string().regex(/^[0-9a-f]{16}$/),
    /** Ed25519 signature of `canonicalJson(document)` (UTF-8), base64. */
    signature: z.string().regex(/^[A-Za-z0-9+/]{86}==$/),
  })
  .strict();
export type LicenceFile = { document: LicenceDocument; keyId: string; signature: string };

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

/** The bytes that are signed: JSON with keys sorted at every level and no whitespace. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** The exact text of a licence file. */
export function formatLicenceFile(file: LicenceFile): string {
  return `${JSON.stringify(sortKeys(file), null, 2)}\n`;
}

/**
 * The value-added services page (增值服务): which feature belongs to which section. Every feature
 * key is in exactly one section; a section with no items is not shown.
 */
export const FEATURE_SECTIONS: ReadonlyArray<{ key: string; features: readonly FeatureKey[] }> = [
  { key: 'visualization', features: ['gis', 'threeD', 'dashboardPlayback', 'video', 'isc', 'hikH5'] },
  { key: 'dataAnalysis', features: ['DST', 'DI', 'AI'] },
  { key: 'flow', features: ['handlerNotification', 'handlerGateway', 'handlerScript'] },
  { key: 'secondaryDevelopment', features: ['sdk', 'Oauth', 'site2APK'] },
  { key: 'advanced', features: ['kafka', 'dataRelay', 'pressMoney'] },
];

/** Sections with their items, leaving out sections (and features) not in `catalogue`. */
export function visibleSections(catalogue: readonly string[] = FEATURE_KEYS) {
  const known = new Set(catalogue);
  return FEATURE_SECTIONS.map((s) => ({ key: s.key, features: s.features.filter((f) => known.has(f)) })).filter(
    (s) => s.features.length > 0,
  );
}

/**
 * Calls that need a licensed feature (checked by the server against the platform licence, and by
 * the console to disable what would be refused): a project with single sign-on needs 'Oauth'.
 */
export const FEATURE_FOR = { projectSso: 'Oauth' } as const satisfies Record<string, FeatureKey>;

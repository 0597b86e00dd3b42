import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import {
  canonicalJson,
  formatLicenceFile,
  LICENCE_FILE_MAX_BYTES,
  type LicenceDocument,
  type LicenceFile,
  licenceDocumentSchema,
  licenceFileSchema,
} from '@gantry/shared';
import { AppError } from '../../lib/app-error.js';

/** The DER prefix that turns a raw 32-byte Ed25519 public key into SPKI. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** A trusted public key: its id (as written in licence files) and the key itself. */
export interface TrustedKey {
  keyId: string;
  key: KeyObject;
  /** The development key pair shipped with the repository (never trusted in production). */
  development: boolean;
}

export function rawPublicKey(key: KeyObject): Buffer {
  return key.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length);
}

/** First 16 hex digits of the SHA-256 of the raw public key. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(rawPublicKey(publicKey)).digest('hex').slice(0, 16);
}

/** A public key from its base64 raw form (44 characters, as `npm run licence -- keygen` prints it). */
export function publicKeyFromBase64(text: string): KeyObject {
  const raw = Buffer.from(text.trim(), 'base64');
  if (raw.length !== 32) throw new Error('an Ed25519 public key is 32 bytes in base64');
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

export function privateKeyFromPem(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 private key');
  return key;
}

/** Signs a document: the vendor side (`npm run licence -- issue`). Returns the file's exact text. */
export function signLicence(document: LicenceDocument, privateKey: KeyObject): string {
  const parsed = licenceDocumentSchema.parse(document);
  const signature = sign(null, Buffer.from(canonicalJson(parsed), 'utf8'), privateKey).toString('base64');
  return formatLicenceFile({ document: parsed, keyId: keyIdOf(createPublicKey(privateKey)), signature });
}

export interface VerifiedLicence extends LicenceFile {
  development: boolean;
}

/**
 * Parses and verifies a licence file's text against the trusted keys: canonical text, known key,
 * valid signature, well-formed document. Product, machine and dates are the caller's to check.
 */
export function verifyLicenceText(text: string, trusted: readonly TrustedKey[], production: boolean): VerifiedLicence {
  if (Buffer.byteLength(text, 'utf8') > LICENCE_FILE_MAX_BYTES) throw new AppError('licenceTooLarge');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('licenceMalformed');
  }
  const envelope = licenceFileSchema.safeParse(json);
  if (!envelope.success) throw new AppError('licenceMalformed');
  const { keyId, signature } = envelope.data;
  const key = trusted.find((k) => k.keyId === keyId);
  if (!key) throw new AppError('licenceUntrusted', { params: { keyId } });
  if (key.development && production) throw new AppError('licenceDevelopment');
  const signatureBytes = Buffer.from(signature, 'base64');
  // Base64 leaves 4 bits of the last character unused: a signature whose text is not the canonical
  // encoding of its bytes would verify with one character changed.
  if (signatureBytes.toString('base64') !== signature) throw new AppError('licenceSignature');
  let signed: Buffer;
  try {
    signed = Buffer.from(canonicalJson(envelope.data.document), 'utf8');
  } catch {
    // Nested too deep to canonicalise (the stack runs out): not a licence document.
    throw new AppError('licenceMalformed');
  }
  if (!verify(null, signed, key.key, signatureBytes)) throw new AppError('licenceSignature');
  const document = licenceDocumentSchema.safeParse(envelope.data.document);
  if (!document.success) throw new AppError('licenceMalformed');
  // Signed, but the file's text must also be exactly what the vendor wrote: one changed byte anywhere
  // (even in spacing or key order) makes the file invalid.
  const file: LicenceFile = { document: document.data, keyId, signature };
  if (formatLicenceFile({ ...file, document: envelope.data.document as LicenceDocument }) !== text) {
    throw new AppError('licenceSignature');
  }
  return { ...file, development: key.development };
}

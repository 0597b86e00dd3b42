import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVER_ROOT } from '../../server-root.js';
import { DEVELOPMENT_PUBLIC_KEY } from './development-key.js';
import { keyIdOf, privateKeyFromPem, publicKeyFromBase64, rawPublicKey, type TrustedKey } from './licence-signature.js';

export { DEVELOPMENT_PUBLIC_KEY };

/**
 * The keys whose signatures the server accepts: the configured vendor keys, plus the development key
 * unless in production. Throws on a malformed key or on the development key configured in production.
 */
export function trustedKeys(configured: readonly string[], production: boolean): TrustedKey[] {
  const developmentRaw = rawPublicKey(publicKeyFromBase64(DEVELOPMENT_PUBLIC_KEY));
  const keys: TrustedKey[] = configured.map((text) => {
    const key = publicKeyFromBase64(text);
    // Compared as bytes, not text: base64 leaves bits of the last character unused, so several
    // texts decode to the development key.
    const development = rawPublicKey(key).equals(developmentRaw);
    if (development && production) {
      throw new Error('the development licence key cannot be trusted in production');
    }
    return { keyId: keyIdOf(key), key, development };
  });
  if (!keys.some((k) => k.development)) {
    const key = publicKeyFromBase64(DEVELOPMENT_PUBLIC_KEY);
    // Listed even in production, so that a development licence gets its own clear refusal.
    keys.push({ keyId: keyIdOf(key), key, development: true });
  }
  return keys;
}

/** Where the development private key lives (tests, the browser tests and `licence issue --key dev`). */
export const DEVELOPMENT_PRIVATE_KEY_FILE = fileURLToPath(new URL('licence-dev/development.private.pem', SERVER_ROOT));

export function developmentPrivateKey(): KeyObject {
  return privateKeyFromPem(readFileSync(DEVELOPMENT_PRIVATE_KEY_FILE, 'utf8'));
}

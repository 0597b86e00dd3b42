import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_ISSUER,
  TOTP_PERIOD_SECONDS,
  TOTP_SECRET_BYTES,
  TOTP_WINDOW_STEPS,
} from '@gantry/shared';
import { HOTP, Secret, TOTP } from 'otpauth';

/** TOTP (RFC 6238) over the `otpauth` package: secrets, URIs, codes by time step. */

export function newTotpSecret(): string {
  return new Secret({ size: TOTP_SECRET_BYTES }).base32;
}

/** The otpauth:// URI authenticator apps read from the QR code. */
export function totpUri(secret: string, account: string, issuer = TOTP_ISSUER): string {
  return new TOTP({
    issuer,
    label: account,
    secret: Secret.fromBase32(secret),
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  }).toString();
}

/** The time step of an instant (RFC 6238's T). */
export const stepOf = (at: Date) => Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS);

/**
 * The latest time step within the window around `at` whose code is `code` and that is later than
 * `lastStep` (a code is never accepted twice, nor one older than the last accepted). Every step of
 * the window is computed and compared in constant time, whichever matches.
 */
export function matchingStep(secret: string, code: string, at: Date, lastStep: number | null): number | undefined {
  const key = Secret.fromBase32(secret);
  const given = Buffer.from(code.padEnd(TOTP_DIGITS, ' ').slice(0, TOTP_DIGITS));
  const now = stepOf(at);
  let found: number | undefined;
  for (let step = now - TOTP_WINDOW_STEPS; step <= now + TOTP_WINDOW_STEPS; step++) {
    const expected = Buffer.from(HOTP.generate({ secret: key, digits: TOTP_DIGITS, counter: step }));
    const same = timingSafeEqual(given, expected) && code.length === TOTP_DIGITS;
    if (same && (lastStep === null || step > lastStep)) found = step;
  }
  return found;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Recovery codes: 16 base32 characters (80 random bits) in groups of four. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(16);
    const chars = Array.from(bytes, (byte) => BASE32[byte & 31]).join('');
    return chars.match(/.{4}/g)?.join('-') ?? chars;
  });
}

/** A recovery code as stored: SHA-256 of its characters, dashes and case aside. */
export function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(code.replaceAll('-', '').toUpperCase()).digest('hex');
}

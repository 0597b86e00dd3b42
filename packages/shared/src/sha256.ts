import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * SHA-256 of a UTF-8 string as lowercase hex. Passwords travel hashed (spec README, contract 2);
 * the console cannot rely on crypto.subtle, which browsers withhold from plain-http origins
 * other than localhost, so both sides use the audited pure-JS `@noble/hashes`.
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

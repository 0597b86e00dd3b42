/**
 * Secrets at rest (the FTP password): AES-256-GCM under a 32-byte key taken from GANTRY_SECRET_KEY
 * (base64) or, when it is not set, from `<data directory>/secret.key`, created once (mode 0600).
 * Stored form: `v1:<iv>:<tag>:<ciphertext>` (base64 each), bound to its purpose by the associated data.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '@gantry/shared';

export const SECRET_KEY_FILE = 'secret.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** A box on `key` (32 bytes). */
  static of(key: Buffer): SecretBox {
    if (key.length !== KEY_BYTES) throw new Error(`A secret key has ${KEY_BYTES} bytes; this one has ${key.length}.`);
    return new SecretBox(key);
  }

  /**
   * The configured key (`configured`, base64 of 32 bytes), else the data directory's key file,
   * created with a random key on first use. Never logged.
   */
  static async open(options: { configured?: string | undefined; dataDir: string }): Promise<SecretBox> {
    if (options.configured) return SecretBox.of(Buffer.from(options.configured, 'base64'));
    const file = path.join(options.dataDir, SECRET_KEY_FILE);
    try {
      return SecretBox.of(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64'));
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    await mkdir(options.dataDir, { recursive: true });
    try {
      // 'wx': of two processes starting together, one writes the key and the other reads it.
      await writeFile(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    return SecretBox.of(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64'));
  }

  seal(plain: string, purpose: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  /** The plain text, or throws when the value was sealed under another key or purpose, or changed. */
  open(sealed: string, purpose: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) {
      throw new Error('The stored secret is not in a known form.');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}

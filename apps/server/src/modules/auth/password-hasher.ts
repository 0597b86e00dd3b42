import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { AppError } from '../../lib/app-error.js';
import { Semaphore } from '../../lib/semaphore.js';

/** Argon2id (the enum is a const enum, which isolated modules cannot import by name). */
const ARGON2ID = 2 as Algorithm;
/** OWASP's baseline for argon2id: 19 MiB, 2 passes, 1 lane. */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * argon2id hashing of wire passwords, bounded by a semaphore so that a flood of logins waits
 * in a short queue (or is refused) instead of starving every other request.
 */
export class PasswordHasher {
  private readonly gate: Semaphore;
  private dummy: Promise<string> | undefined;

  constructor(concurrency: number, queue: number) {
    this.gate = new Semaphore(concurrency, queue);
  }

  hash(password: string): Promise<string> {
    return this.guard(() => hash(password, OPTIONS));
  }

  /** Verifies; with no stored hash it still spends the same work, so timing does not reveal it. */
  verify(stored: string | null | undefined, password: string): Promise<boolean> {
    return this.guard(async () => {
      if (stored) return verify(stored, password);
      this.dummy ??= hash('not-a-real-password', OPTIONS);
      await verify(await this.dummy, password);
      return false;
    });
  }

  private async guard<T>(job: () => Promise<T>): Promise<T> {
    const result = await this.gate.run(job);
    if (!result) throw new AppError('tooManyRequests');
    return result.value;
  }
}

import { createHash, randomUUID } from 'node:crypto';
import { CAPTCHA_TTL_SECONDS } from '@gantry/shared';
import type { Clock } from '../../lib/clock.js';
import type { CaptchaRepository } from './captcha.repository.js';
import { captchaImage } from './captcha-image.js';

const digest = (answer: string) => createHash('sha256').update(answer.trim().toLowerCase()).digest('hex');

/** Image verification codes: issued by the server, stored hashed, single use, checked here. */
export class CaptchaService {
  constructor(
    private readonly repository: CaptchaRepository,
    private readonly clock: Clock,
  ) {}

  async issue(): Promise<{ id: string; svg: string; answer: string }> {
    const { text, svg } = captchaImage();
    const id = randomUUID();
    const now = this.clock();
    await this.repository.create(id, digest(text), new Date(now.getTime() + CAPTCHA_TTL_SECONDS * 1000));
    return { id, svg, answer: text };
  }

  deleteExpired(): Promise<void> {
    return this.repository.deleteExpired(this.clock());
  }

  /** True when the code answers that image; the image is used up either way. */
  async verify(id: string, code: string): Promise<boolean> {
    const stored = await this.repository.take(id);
    if (!stored || stored.expiresAt.getTime() <= this.clock().getTime()) return false;
    return stored.answerHash === digest(code);
  }
}

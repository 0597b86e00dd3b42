import {
  CAPTCHA_ACCOUNT_FAILURES,
  CAPTCHA_ADDRESS_FAILURES,
  CAPTCHA_FAILURE_WINDOW_SECONDS,
  type CaptchaMode,
  type CaptchaResponse,
  type Language,
  translate,
} from '@gantry/shared';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { CaptchaService } from './captcha.service.js';
import type { LoginAttemptRepository } from './login-attempt.repository.js';

/** How long failed attempts keep counting towards the verification code ('afterFailure'). */
export const FAILURE_MEMORY_MS = CAPTCHA_FAILURE_WINDOW_SECONDS * 1000;

const addressKey = (ip: string) => `ip:${ip}`;

/** A duration in words, for the frozen-account message. */
function waitText(ms: number, language: Language): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 60) return `${minutes} ${translate('unit.m', language)}`;
  const hours = Math.ceil(minutes / 60);
  if (hours < 24) return `${hours} ${translate('unit.h', language)}`;
  return `${Math.ceil(hours / 24)} ${translate('unit.d', language)}`;
}

export interface LoginGuardDeps {
  attempts: LoginAttemptRepository;
  captcha: CaptchaService;
  settings: SettingsService;
  clock: Clock;
}

/**
 * The rules every password sign-in goes through (the console's and each back office's): the
 * verification code policy (settings.captcha) and the lockout (settings.errorLogin), counted per
 * account key (`user:…`, `site:…`) and per address.
 */
export class LoginGuard {
  constructor(private readonly deps: LoginGuardDeps) {}

  /**
   * Whether the next sign-in of this account from this address must carry a code. 'afterFailure':
   * the account saw CAPTCHA_ACCOUNT_FAILURES wrong passwords (from anywhere), or the address
   * CAPTCHA_ADDRESS_FAILURES (for any names), within the last CAPTCHA_FAILURE_WINDOW_SECONDS. So one
   * typo asks that account for a code, not everyone behind the same NAT; guessing at many names
   * from one address asks the whole address.
   */
  async captchaRequired(account: string, ip: string, captcha?: CaptchaMode): Promise<boolean> {
    const mode = captcha ?? (await this.deps.settings.get()).captcha;
    if (mode === 'always') return true;
    if (mode === 'off') return false;
    const since = new Date(this.deps.clock().getTime() - FAILURE_MEMORY_MS);
    return this.deps.attempts.anyReached(
      [
        { key: account, count: CAPTCHA_ACCOUNT_FAILURES },
        { key: addressKey(ip), count: CAPTCHA_ADDRESS_FAILURES },
      ],
      since,
    );
  }

  async captchaFor(account: string, ip: string): Promise<CaptchaResponse> {
    if (!(await this.captchaRequired(account, ip))) return { required: false };
    const { id, svg } = await this.deps.captcha.issue();
    return { required: true, id, svg };
  }

  /**
   * One sign-in attempt: `check` reads the account and verifies the password, answering the account
   * when the password is right and undefined otherwise. Order matters: the verification code and the
   * attempt count are settled before any password hash is computed, and the attempt is reserved
   * atomically so that concurrent wrong passwords never exceed the configured count.
   *
   * A second factor's code (issue 34 §2) counts on the same account: its password step passes
   * `onSuccess: 'release'` (the right password gives back its own attempt but does not clear the
   * wrong codes before it, so alternating password and guessed codes still reaches the lockout), and
   * its code step `captcha: false` (the verification code was settled with the password).
   */
  async attempt<T>(
    account: string,
    ip: string,
    body: { code?: string | undefined; codeId?: string | undefined },
    language: Language,
    check: () => Promise<T | undefined>,
    options: { captcha?: boolean; onSuccess?: 'clear' | 'release'; wrong?: () => AppError } = {},
  ): Promise<T> {
    const { deps } = this;
    const settings = await deps.settings.get();
    if (options.captcha !== false && (await this.captchaRequired(account, ip, settings.captcha))) {
      if (!body.code || !body.codeId)
        throw new AppError('captchaRequired', { fields: { code: 'auth.captchaRequired' } });
      if (!(await deps.captcha.verify(body.codeId, body.code))) {
        throw new AppError('captchaInvalid', { fields: { code: 'auth.captchaInvalid' } });
      }
    }

    const now = deps.clock();
    const limit = settings.errorLogin.count;
    const freezeMs = (settings.errorLogin.duration.interval ?? 60) * 1000;
    const frozen = (until: number) =>
      new AppError('accountFrozen', {
        params: { wait: waitText(until - now.getTime(), language) },
        fields: { user: 'auth.frozen' },
      });
    const freeze = async () => {
      const until = new Date(now.getTime() + freezeMs);
      await deps.attempts.freeze(account, until);
      return frozen(until.getTime());
    };

    const reservation = await deps.attempts.reserve(account, now);
    if (reservation.frozenUntil) throw frozen(reservation.frozenUntil.getTime());
    // Over the count (concurrent attempts, or a limit lowered since): freeze now, so that the
    // freeze ends and the count starts over, whatever happened to the attempt that reached it.
    if (limit && reservation.attempts > limit) throw await freeze();

    let found: T | undefined;
    try {
      found = await check();
    } catch (error) {
      // Not checked (busy, or a fault): the attempt does not count against the account.
      await deps.attempts.release(account);
      throw error;
    }
    if (found === undefined) {
      await deps.attempts.recordFailure(addressKey(ip), now, new Date(now.getTime() - FAILURE_MEMORY_MS));
      if (limit && reservation.attempts >= limit) throw await freeze();
      throw options.wrong?.() ?? new AppError('badCredentials', { fields: { user: 'auth.badCredentials' } });
    }
    if (options.onSuccess === 'release') await deps.attempts.release(account);
    else await deps.attempts.clear(account);
    return found;
  }
}

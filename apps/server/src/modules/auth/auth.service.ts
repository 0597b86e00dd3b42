import { createHash, randomBytes } from 'node:crypto';
import {
  ADMIN_USER_ID,
  CAPTCHA_ACCOUNT_FAILURES,
  CAPTCHA_ADDRESS_FAILURES,
  CAPTCHA_FAILURE_WINDOW_SECONDS,
  type CaptchaMode,
  type CaptchaResponse,
  type Language,
  type LoginBody,
  type LoginResponse,
  type SessionUser,
  TOKEN_BYTES,
  translate,
} from '@gantry/shared';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserRepository, UserRow } from '../users/user.repository.js';
import type { CaptchaService } from './captcha.service.js';
import type { LoginAttemptRepository } from './login-attempt.repository.js';
import type { PasswordHasher } from './password-hasher.js';
import type { SessionRepository } from './session.repository.js';
import type { SessionCache } from './session-cache.js';

/** How long failed attempts keep counting towards the verification code ('afterFailure'). */
const FAILURE_MEMORY_MS = CAPTCHA_FAILURE_WINDOW_SECONDS * 1000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const userKey = (username: string) => `user:${username}`;
const addressKey = (ip: string) => `ip:${ip}`;

export interface AuthDeps {
  users: UserRepository;
  sessions: SessionRepository;
  attempts: LoginAttemptRepository;
  captcha: CaptchaService;
  settings: SettingsService;
  hasher: PasswordHasher;
  clock: Clock;
  /** Tells every server process of ended sessions and changed users. */
  bus: InvalidationBus;
  /** Recently seen sessions; kept right by the bus (absent: every call asks the database). */
  sessionCache?: SessionCache;
}

/** A duration in words, for the frozen-account message. */
function waitText(ms: number, language: Language): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 60) return `${minutes} ${translate('unit.m', language)}`;
  const hours = Math.ceil(minutes / 60);
  if (hours < 24) return `${hours} ${translate('unit.h', language)}`;
  return `${Math.ceil(hours / 24)} ${translate('unit.d', language)}`;
}

export function toSessionUser(user: UserRow, expiresAt: Date): SessionUser {
  return {
    id: user.id,
    username: user.id,
    name: user.name,
    isAdmin: user.isAdmin,
    userId: user.id,
    protectUrl: user.protectUrl,
    expiresAt: expiresAt.toISOString(),
  };
}

export class AuthService {
  /** Once the administrator exists it never stops existing: no need to ask the database again. */
  private adminKnown = false;

  constructor(private readonly deps: AuthDeps) {
    const cache = deps.sessionCache;
    if (cache) deps.bus.subscribe((change) => cache.apply(change));
  }

  async adminExists(): Promise<boolean> {
    if (!this.adminKnown) this.adminKnown = await this.deps.users.adminExists();
    return this.adminKnown;
  }

  async registerAdmin(password: string): Promise<void> {
    if (await this.adminExists()) throw new AppError('adminExists');
    const created = await this.deps.users.createAdmin(await this.deps.hasher.hash(password));
    if (!created) throw new AppError('adminExists');
  }

  /**
   * Whether the next login of this account from this address must carry a code. 'afterFailure':
   * the account name saw CAPTCHA_ACCOUNT_FAILURES wrong passwords (from anywhere), or the address
   * CAPTCHA_ADDRESS_FAILURES (for any names), within the last CAPTCHA_FAILURE_WINDOW_SECONDS. So one
   * typo asks that account for a code, not everyone behind the same NAT; guessing at many names
   * from one address asks the whole address.
   */
  async captchaRequired(username: string, ip: string, mode?: CaptchaMode): Promise<boolean> {
    const captcha = mode ?? (await this.deps.settings.get()).captcha;
    if (captcha === 'always') return true;
    if (captcha === 'off') return false;
    const since = new Date(this.deps.clock().getTime() - FAILURE_MEMORY_MS);
    return this.deps.attempts.anyReached(
      [
        { key: userKey(username), count: CAPTCHA_ACCOUNT_FAILURES },
        { key: addressKey(ip), count: CAPTCHA_ADDRESS_FAILURES },
      ],
      since,
    );
  }

  async captchaFor(username: string, ip: string): Promise<CaptchaResponse> {
    if (!(await this.captchaRequired(username, ip))) return { required: false };
    const { id, svg } = await this.deps.captcha.issue();
    return { required: true, id, svg };
  }

  /**
   * Order matters: the verification code and the attempt count are settled before any password
   * hash is computed, and the attempt is reserved atomically so that concurrent wrong passwords
   * never exceed the configured count.
   */
  async login(body: LoginBody, ip: string, language: Language): Promise<LoginResponse> {
    const { username, password } = body;
    const { deps } = this;
    if (username === ADMIN_USER_ID && !(await this.adminExists())) {
      throw new AppError('adminMissing', { fields: { user: 'auth.adminMissing' } });
    }
    const settings = await deps.settings.get();

    if (await this.captchaRequired(username, ip, settings.captcha)) {
      if (!body.code || !body.codeId)
        throw new AppError('captchaRequired', { fields: { code: 'auth.captchaRequired' } });
      if (!(await deps.captcha.verify(body.codeId, body.code))) {
        throw new AppError('captchaInvalid', { fields: { code: 'auth.captchaInvalid' } });
      }
    }

    const now = deps.clock();
    const key = userKey(username);
    const limit = settings.errorLogin.count;
    const freezeMs = (settings.errorLogin.duration.interval ?? 60) * 1000;
    const frozen = (until: number) =>
      new AppError('accountFrozen', {
        params: { wait: waitText(until - now.getTime(), language) },
        fields: { user: 'auth.frozen' },
      });

    const reservation = await deps.attempts.reserve(key, now);
    if (reservation.frozenUntil) throw frozen(reservation.frozenUntil.getTime());
    if (limit && reservation.attempts > limit) {
      // Over the count (concurrent attempts, or a limit lowered since): freeze now, so that the
      // freeze ends and the count starts over, whatever happened to the attempt that reached it.
      const until = new Date(now.getTime() + freezeMs);
      await deps.attempts.freeze(key, until);
      throw frozen(until.getTime());
    }

    let user: UserRow | undefined;
    let valid: boolean;
    try {
      user = await deps.users.findById(username);
      valid = await deps.hasher.verify(user?.passwordHash, password);
    } catch (error) {
      // Not checked (busy, or a fault): the attempt does not count against the account.
      await deps.attempts.release(key);
      throw error;
    }
    if (!user || !valid) {
      await deps.attempts.recordFailure(addressKey(ip), now, new Date(now.getTime() - FAILURE_MEMORY_MS));
      if (limit && reservation.attempts >= limit) {
        const until = new Date(now.getTime() + freezeMs);
        await deps.attempts.freeze(key, until);
        throw frozen(until.getTime());
      }
      throw new AppError('badCredentials', { fields: { user: 'auth.badCredentials' } });
    }
    await deps.attempts.clear(key);
    if (!user.status) throw new AppError('accountDisabled', { fields: { user: 'auth.disabled' } });

    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const expiresAt = new Date(now.getTime() + (settings.loginDuration.time ?? 86_400) * 1000);
    await deps.sessions.create({ tokenHash: hashToken(token), userId: user.id, expiresAt, ip });
    return { ...toSessionUser(user, expiresAt), token };
  }

  async logout(tokenHash: string): Promise<void> {
    await this.deps.sessions.delete(tokenHash);
    await this.deps.bus.publish({ kind: 'session', tokenHash });
  }

  /** Forgets expired sessions, codes and old attempt counters; run on a timer, off the request path. */
  async cleanUp(): Promise<void> {
    const now = this.deps.clock();
    await this.deps.sessions.deleteExpired(now);
    await this.deps.captcha.deleteExpired();
    await this.deps.attempts.purge(new Date(now.getTime() - 24 * FAILURE_MEMORY_MS));
  }

  /** Checks the old password, stores the new one and ends every session of the user. */
  async changePassword(user: UserRow, oldPassword: string, newPassword: string): Promise<void> {
    const current = await this.deps.users.findById(user.id);
    if (!(await this.deps.hasher.verify(current?.passwordHash, oldPassword))) {
      throw new AppError('oldPasswordWrong', { fields: { oldPassword: 'auth.oldPasswordWrong' } });
    }
    await this.deps.users.setPassword(user.id, await this.deps.hasher.hash(newPassword));
    await this.deps.sessions.deleteForUser(user.id);
    await this.deps.bus.publish({ kind: 'user', userId: user.id });
  }

  /** Whether `password` (wire form) is the user's current password. */
  async verifyPassword(userId: string, password: string): Promise<boolean> {
    const current = await this.deps.users.findById(userId);
    return this.deps.hasher.verify(current?.passwordHash, password);
  }

  /** Argon2id hash of a wire password, through the bounded hasher. */
  hashPassword(password: string): Promise<string> {
    return this.deps.hasher.hash(password);
  }

  /** Ends every session of a user (disabled tenant, password set by the administrator). */
  async endSessions(userId: string): Promise<void> {
    await this.deps.sessions.deleteForUser(userId);
    await this.deps.bus.publish({ kind: 'user', userId });
  }

  /**
   * Drops a changed user record from every process's session cache so the next call reads it
   * fresh. Inside the transaction that changes it, pass its handle (announced when it commits).
   */
  forgetCachedUser(userId: string, db?: Database): Promise<void> {
    return this.deps.bus.publish({ kind: 'user', userId }, db);
  }

  /** The session behind a token, if it is alive. */
  async authenticate(token: string): Promise<{ user: UserRow; expiresAt: Date; tokenHash: string } | undefined> {
    const tokenHash = hashToken(token);
    const now = this.deps.clock();
    const cache = this.deps.sessionCache;
    const cached = cache?.get(tokenHash, now.getTime());
    if (cached) return { ...cached, tokenHash };
    const generation = cache?.generation;
    const found = await this.deps.sessions.findActive(tokenHash, now);
    if (found && cache && generation !== undefined) cache.set(tokenHash, found, now.getTime(), generation);
    return found && { ...found, tokenHash };
  }
}

import { createHash, randomBytes } from 'node:crypto';
import {
  ADMIN_USER_ID,
  type CaptchaResponse,
  type Language,
  type LoginBody,
  type LoginResponse,
  type SessionUser,
  TOKEN_BYTES,
} from '@gantry/shared';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserRepository, UserRow } from '../users/user.repository.js';
import type { CaptchaService } from './captcha.service.js';
import type { LoginAttemptRepository } from './login-attempt.repository.js';
import { FAILURE_MEMORY_MS, LoginGuard } from './login-guard.js';
import type { PasswordHasher } from './password-hasher.js';
import type { SessionRepository } from './session.repository.js';
import type { SessionCache } from './session-cache.js';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const userKey = (username: string) => `user:${username}`;

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
  /** Whether a user may sign in with a password now (single sign-on can turn it off for tenants). */
  passwordLoginAllowed?: (user: UserRow) => Promise<boolean>;
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

  private readonly guard: LoginGuard;

  constructor(private readonly deps: AuthDeps) {
    this.guard = new LoginGuard(deps);
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

  captchaFor(username: string, ip: string): Promise<CaptchaResponse> {
    return this.guard.captchaFor(userKey(username), ip);
  }

  /** The password checked under the verification code and lockout rules (LoginGuard). */
  async login(body: LoginBody, ip: string, language: Language): Promise<LoginResponse> {
    const { username, password } = body;
    const { deps } = this;
    if (username === ADMIN_USER_ID && !(await this.adminExists())) {
      throw new AppError('adminMissing', { fields: { user: 'auth.adminMissing' } });
    }
    const user = await this.guard.attempt(userKey(username), ip, body, language, async () => {
      const found = await deps.users.findById(username);
      return (await deps.hasher.verify(found?.passwordHash, password)) ? found : undefined;
    });
    if (!user.status) throw new AppError('accountDisabled', { fields: { user: 'auth.disabled' } });
    if (deps.passwordLoginAllowed && !(await deps.passwordLoginAllowed(user))) {
      throw new AppError('passwordLoginDisabled', { fields: { user: 'sso.passwordLoginDisabled' } });
    }
    return this.startSession(user, ip);
  }

  /** A new session of `user` (password or single sign-on: the same session either way). */
  async startSession(user: UserRow, ip: string, db?: Database): Promise<LoginResponse> {
    const settings = await this.deps.settings.get();
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const expiresAt = new Date(this.deps.clock().getTime() + (settings.loginDuration.time ?? 86_400) * 1000);
    await this.deps.sessions.create({ tokenHash: hashToken(token), userId: user.id, expiresAt, ip }, db);
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

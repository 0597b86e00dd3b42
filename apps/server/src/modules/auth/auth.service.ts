import { createHash, randomBytes } from 'node:crypto';
import {
  ADMIN_USER_ID,
  API_TOKEN_PREFIX,
  type CaptchaResponse,
  type Language,
  type LoginBody,
  type LoginResponse,
  type PendingSignIn,
  type SessionUser,
  type Settings,
  TOKEN_BYTES,
} from '@gantry/shared';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import type { RequestAuth } from '../../plugins/types.js';
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

/**
 * The second factor of a sign-in (modules/two-factor): whether the account owes one after its
 * password ('code', or 'setup' when settings require one it has not set up), and the pending sign-in
 * that asks for it.
 */
export interface SecondFactorGate {
  /** Asks the same query whether or not the account exists (no timing tells which). */
  dueFor(username: string, user: UserRow | undefined, settings: Settings): Promise<'code' | 'setup' | undefined>;
  begin(user: UserRow, due: 'code' | 'setup', ip: string): Promise<PendingSignIn>;
}

/** API tokens (modules/api-tokens): the caller behind one, and their end with a password change. */
export interface ApiTokenGate {
  authenticate(token: string): Promise<RequestAuth | undefined>;
  passwordChanged(userId: string): Promise<void>;
}

/** What a password sign-in answers: a session, or the second step still due. */
export type LoginOutcome = LoginResponse | PendingSignIn;

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
  private secondFactor: SecondFactorGate | undefined;
  private apiTokens: ApiTokenGate | undefined;

  constructor(private readonly deps: AuthDeps) {
    this.guard = new LoginGuard(deps);
    const cache = deps.sessionCache;
    if (cache) deps.bus.subscribe((change) => cache.apply(change));
  }

  /** Set once at start (the second factor needs this service to open its sessions). */
  useSecondFactor(gate: SecondFactorGate): void {
    this.secondFactor = gate;
  }

  /** Set once at start: who answers for `gty_` tokens (modules/api-tokens). */
  useApiTokens(gate: ApiTokenGate): void {
    this.apiTokens = gate;
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

  /**
   * The password checked under the verification code and lockout rules (LoginGuard); then a
   * session, or the second step when the account owes a second factor (no session before it).
   */
  async login(body: LoginBody, ip: string, language: Language): Promise<LoginOutcome> {
    const { username, password } = body;
    const { deps } = this;
    if (username === ADMIN_USER_ID && !(await this.adminExists())) {
      throw new AppError('adminMissing', { fields: { user: 'auth.adminMissing' } });
    }
    const settings = await deps.settings.get();
    const account = await deps.users.findById(username);
    // Known before the password is checked, so that a right password does not clear the wrong codes
    // counted before it (LoginGuard.attempt).
    const owesCode = await this.secondFactor?.dueFor(username, account, settings);
    const user = await this.guard.attempt(
      userKey(username),
      ip,
      body,
      language,
      async () => ((await deps.hasher.verify(account?.passwordHash, password)) ? account : undefined),
      { onSuccess: owesCode ? 'release' : 'clear' },
    );
    if (!user.status) throw new AppError('accountDisabled', { fields: { user: 'auth.disabled' } });
    if (deps.passwordLoginAllowed && !(await deps.passwordLoginAllowed(user))) {
      throw new AppError('passwordLoginDisabled', { fields: { user: 'sso.passwordLoginDisabled' } });
    }
    const due = await this.secondFactor?.dueFor(user.id, user, settings);
    if (due && this.secondFactor) return this.secondFactor.begin(user, due, ip);
    return this.startSession(user, ip, { settings });
  }

  /**
   * The second factor's code checked under the same lockout as the password (same account key),
   * without a verification code image (settled with the password); `wrong` is the refusal.
   */
  attemptSecondFactor<T>(
    username: string,
    ip: string,
    language: Language,
    check: () => Promise<T | undefined>,
    wrong: () => AppError,
  ): Promise<T> {
    return this.guard.attempt(userKey(username), ip, {}, language, check, { captcha: false, wrong });
  }

  /**
   * A new session of `user` once every step passed: password (and second factor), or single sign-on —
   * the same session either way. `db`: the caller's transaction.
   */
  async startSession(
    user: UserRow,
    ip: string,
    options: { db?: Database; settings?: Settings } = {},
  ): Promise<LoginResponse> {
    const { deps } = this;
    const { loginDuration } = options.settings ?? (await deps.settings.get());
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const expiresAt = new Date(deps.clock().getTime() + (loginDuration.time ?? 86_400) * 1000);
    await deps.sessions.create({ tokenHash: hashToken(token), userId: user.id, expiresAt, ip }, options.db);
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
    await this.passwordChanged(user.id);
  }

  /** A password set: every session of the user ends, and the API tokens made to end with it. */
  async passwordChanged(userId: string): Promise<void> {
    await this.apiTokens?.passwordChanged(userId);
    await this.endSessions(userId);
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

  /** The session (or API token) behind a token, if it is alive. */
  async authenticate(token: string): Promise<RequestAuth | undefined> {
    if (token.startsWith(API_TOKEN_PREFIX)) return this.apiTokens?.authenticate(token);
    const tokenHash = hashToken(token);
    const now = this.deps.clock();
    const cache = this.deps.sessionCache;
    const cached = cache?.get(tokenHash, now.getTime());
    if (cached) {
      if (cache?.refreshDue(tokenHash, now.getTime())) {
        void this.lookUp(tokenHash, now)
          .catch(() => undefined)
          .finally(() => cache.refreshed(tokenHash));
      }
      return { ...cached, tokenHash };
    }
    const found = await this.lookUp(tokenHash, now);
    return found && { ...found, tokenHash };
  }

  /** The live session behind a token hash, kept in the session cache (or dropped from it). */
  private async lookUp(tokenHash: string, now: Date) {
    const cache = this.deps.sessionCache;
    const generation = cache?.generation;
    const found = await this.deps.sessions.findActive(tokenHash, now);
    if (cache && generation !== undefined) cache.set(tokenHash, found, now.getTime(), generation);
    return found;
  }
}

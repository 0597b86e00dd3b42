import { randomBytes } from 'node:crypto';
import {
  type Language,
  type LoginResponse,
  PENDING_SIGN_IN_SECONDS,
  PENDING_SIGN_IN_TRIES,
  type PendingSignIn,
  RECOVERY_CODE_PATTERN,
  type Settings,
  TOKEN_BYTES,
  type TotpSetupResponse,
  type TotpStatus,
} from '@gantry/shared';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { type AuthService, hashToken, type SecondFactorGate } from '../auth/auth.service.js';
import type { SecretBox } from '../ftp/secret-box.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserRow } from '../users/user.repository.js';
import { matchingStep, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpUri } from './totp.js';
import type { TwoFactorRepository } from './two-factor.repository.js';

/** Purpose the secret is sealed under (secret-box.ts). */
const SEALED_AS = 'totp';

export interface TwoFactorDeps {
  db: Database;
  repo: TwoFactorRepository;
  auth: AuthService;
  audit: AuditService;
  settings: SettingsService;
  secrets: () => Promise<SecretBox>;
  clock: Clock;
}

/** Whether settings require a second factor of this account. */
export const requiredFor = (user: UserRow, settings: Settings) =>
  user.isAdmin ? settings.twoFactor.admin : settings.twoFactor.tenants;

const codeWrong = () => new AppError('totpCodeWrong', { fields: { code: 'totp.codeWrong' } });
const pendingInvalid = () => new AppError('pendingSignInInvalid');

/**
 * Two-factor sign-in (issue 34 §2): set-up and removal from the personal centre, and the second
 * step of a sign-in (`POST login` answers a pending sign-in; its code opens the session).
 */
export class TwoFactorService implements SecondFactorGate {
  constructor(private readonly deps: TwoFactorDeps) {}

  async status(user: UserRow): Promise<TotpStatus> {
    const [enabled, settings, left] = await Promise.all([
      this.deps.repo.isOn(user.id),
      this.deps.settings.get(),
      this.deps.repo.recoveryCodesLeft(user.id),
    ]);
    return { enabled, required: requiredFor(user, settings), recoveryCodesLeft: enabled ? left : 0 };
  }

  /** A new secret for `user`, shown once; it counts only once a code of it is confirmed. */
  async startSetup(user: UserRow): Promise<TotpSetupResponse> {
    const secret = newTotpSecret();
    const sealed = (await this.deps.secrets()).seal(secret, SEALED_AS);
    if (!(await this.deps.repo.startSetup(user.id, sealed))) throw new AppError('totpAlreadyOn');
    const { name } = await this.deps.settings.get();
    return { secret, uri: totpUri(secret, user.id, name) };
  }

  /** The first code of the new secret: turns it on and answers the recovery codes, shown once. */
  async confirm(actor: Actor, code: string): Promise<string[]> {
    const { repo, db, audit, clock } = this.deps;
    const row = await repo.find(actor.user.id);
    if (!row) throw new AppError('totpNoSetup');
    if (row.confirmedAt) throw new AppError('totpAlreadyOn');
    const step = matchingStep(await this.open(row.secretSealed), code, clock(), row.lastStep);
    if (step === undefined || !(await repo.acceptStep(actor.user.id, step))) throw codeWrong();
    const codes = newRecoveryCodes();
    await db.transaction(async (tx) => {
      await repo.confirm(tx, actor.user.id, clock(), codes.map(recoveryCodeHash));
      await audit.record(actor, { action: 'account.totp.on', objectType: 'account', objectId: actor.user.id }, tx);
    });
    return codes;
  }

  /** Turns it off, given the password or a current code; refused while settings require it. */
  async turnOff(actor: Actor, proof: { password?: string | undefined; code?: string | undefined }): Promise<void> {
    const { repo, db, audit, auth, settings, clock } = this.deps;
    if (requiredFor(actor.user, await settings.get())) throw new AppError('totpRequired');
    const row = await repo.find(actor.user.id);
    if (!row?.confirmedAt) throw new AppError('totpNotOn');
    if (proof.password !== undefined) {
      if (!(await auth.verifyPassword(actor.user.id, proof.password))) {
        throw new AppError('verifyFailed', { fields: { password: 'auth.verifyFailed' } });
      }
    } else {
      const step = matchingStep(await this.open(row.secretSealed), proof.code ?? '', clock(), row.lastStep);
      if (step === undefined || !(await repo.acceptStep(actor.user.id, step))) throw codeWrong();
    }
    await db.transaction(async (tx) => {
      if (!(await repo.remove(tx, actor.user.id))) throw new AppError('totpNotOn');
      await audit.record(actor, { action: 'account.totp.off', objectType: 'account', objectId: actor.user.id }, tx);
    });
  }

  async dueFor(username: string, user: UserRow | undefined, settings: Settings): Promise<'code' | 'setup' | undefined> {
    if (await this.deps.repo.isOn(username)) return 'code';
    return user && requiredFor(user, settings) ? 'setup' : undefined;
  }

  async begin(user: UserRow, due: 'code' | 'setup', ip: string): Promise<PendingSignIn> {
    const pendingToken = randomBytes(TOKEN_BYTES).toString('base64url');
    const expiresAt = new Date(this.deps.clock().getTime() + PENDING_SIGN_IN_SECONDS * 1000);
    await this.deps.repo.createPending({ tokenHash: hashToken(pendingToken), userId: user.id, expiresAt, ip });
    return { twoFactor: due, pendingToken, expiresAt: expiresAt.toISOString() };
  }

  /**
   * The second step: a code of the app (never one of a step already used) or an unused recovery
   * code, counted under the account's lockout. A right one ends the pending sign-in and opens the
   * session; PENDING_SIGN_IN_TRIES wrong ones end it (the password must be given again).
   */
  async signInWithCode(pendingToken: string, code: string, ip: string, language: Language): Promise<LoginResponse> {
    const { repo, db, audit, auth, clock } = this.deps;
    const tokenHash = hashToken(pendingToken);
    const pending = await repo.findPending(tokenHash, clock());
    if (!pending?.user.status) throw pendingInvalid();
    const { user } = pending;
    const actor: Actor = { user, ip };
    const recovery = RECOVERY_CODE_PATTERN.test(code);
    const accepted = await auth
      .attemptSecondFactor(
        user.id,
        ip,
        language,
        async () => {
          const row = await repo.find(user.id);
          if (!row?.confirmedAt) return undefined;
          if (recovery) {
            return db.transaction(async (tx) => {
              if (!(await repo.useRecoveryCode(tx, user.id, recoveryCodeHash(code), clock()))) return undefined;
              await audit.record(
                actor,
                { action: 'account.totp.recoveryCodeUsed', objectType: 'account', objectId: user.id },
                tx,
              );
              return true;
            });
          }
          const step = matchingStep(await this.open(row.secretSealed), code, clock(), row.lastStep);
          return step !== undefined && (await repo.acceptStep(user.id, step)) ? true : undefined;
        },
        () => codeWrong(),
      )
      .catch(async (error: unknown) => {
        if (error instanceof AppError && error.code === 'totpCodeWrong') await this.refused(actor, tokenHash, recovery);
        throw error;
      });
    if (!accepted || !(await repo.endPending(tokenHash))) throw pendingInvalid();
    return auth.startSession(user, ip);
  }

  /** A required account's set-up during sign-in: the secret, for the pending sign-in's account. */
  async startSetupSigningIn(pendingToken: string): Promise<TotpSetupResponse> {
    const pending = await this.deps.repo.findPending(hashToken(pendingToken), this.deps.clock());
    if (!pending?.user.status) throw pendingInvalid();
    return this.startSetup(pending.user);
  }

  /** …and its first code: turned on, and the session opened with the recovery codes. */
  async confirmSigningIn(
    pendingToken: string,
    code: string,
    ip: string,
  ): Promise<LoginResponse & { recoveryCodes: string[] }> {
    const tokenHash = hashToken(pendingToken);
    const pending = await this.deps.repo.findPending(tokenHash, this.deps.clock());
    if (!pending?.user.status) throw pendingInvalid();
    const recoveryCodes = await this.confirm({ user: pending.user, ip }, code);
    if (!(await this.deps.repo.endPending(tokenHash))) throw pendingInvalid();
    return { ...(await this.deps.auth.startSession(pending.user, ip)), recoveryCodes };
  }

  cleanUp(): Promise<void> {
    return this.deps.repo.deleteExpiredPending(this.deps.clock());
  }

  private async refused(actor: Actor, tokenHash: string, recovery: boolean): Promise<void> {
    const { repo, db, audit } = this.deps;
    await db.transaction((tx) =>
      audit.record(
        actor,
        { action: 'account.totp.refused', objectType: 'account', objectId: actor.user.id, detail: { recovery } },
        tx,
      ),
    );
    if ((await repo.countTry(tokenHash)) >= PENDING_SIGN_IN_TRIES) await repo.endPending(tokenHash);
  }

  private async open(sealed: string): Promise<string> {
    return (await this.deps.secrets()).open(sealed, SEALED_AS);
  }
}

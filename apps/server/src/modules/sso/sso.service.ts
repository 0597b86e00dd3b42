import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type LoginResponse,
  SSO_LIMITS,
  type SsoLoginOptions,
  type SsoSettings,
  type SsoSettingsInput,
  safeReturnPath,
  TENANT_NAME_MAX,
  USER_ID_PATTERN,
} from '@gantry/shared';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { AuthService } from '../auth/auth.service.js';
import type { SecretBox } from '../ftp/secret-box.js';
import type { TenantRepository } from '../tenants/tenant.repository.js';
import type { UserRepository, UserRow } from '../users/user.repository.js';
import { type OidcRelyingParty, ProviderUnavailable } from './oidc-relying-party.js';
import type { SsoRepository, SsoSettingsRow, SsoSettingsValues } from './sso.repository.js';

/** What the sealed client secret is bound to (the associated data of its encryption). */
const SECRET_PURPOSE = 'sso_settings.client_secret';
const HOME = '/app/dashboard';

const DEFAULTS: SsoSettingsValues = {
  enabled: false,
  issuer: '',
  clientId: '',
  clientSecretEncrypted: null,
  scopes: 'openid profile email',
  accountClaim: 'preferred_username',
  buttonName: '',
  unknownAccount: 'refuse',
  tenantType: 0,
  tenantIndustry: 'other',
  tenantPasswordLogin: true,
};

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const random = () => randomBytes(32).toString('base64url');
function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface SsoDeps {
  db: Database;
  repo: SsoRepository;
  users: UserRepository;
  tenants: TenantRepository;
  auth: AuthService;
  audit: AuditService;
  rp: OidcRelyingParty;
  clock: Clock;
  secrets: () => Promise<SecretBox>;
  log: { warn(fields: object, message: string): void };
}

/** A started sign-in: where to send the browser, and the cookie that binds it to this browser. */
export interface SsoStart {
  location: string;
  browser: string;
}

/** The provider's answer, handled: a ticket for the console (with a new browser cookie), or a refusal. */
export type SsoOutcome = { ticket: string; browser: string } | { error: AppError };

/**
 * Single sign-on with OpenID Connect (issue 34 §1). A sign-in is three calls: `start` (state, nonce
 * and PKCE verifier kept server-side, bound to the browser by an HttpOnly cookie), `callback` (the
 * provider's answer taken once, the ID token checked, the account found or made, a one-time ticket)
 * and `redeem` (the console trades the ticket, from the same browser, for the same session a password
 * sign-in makes).
 */
export class SsoService {
  constructor(private readonly deps: SsoDeps) {}

  async view(redirectUri: string): Promise<SsoSettings> {
    return present((await this.deps.repo.settings()) ?? DEFAULTS, redirectUri);
  }

  /** What the login page shows (only when SSO is enabled). */
  async loginOptions(): Promise<SsoLoginOptions> {
    const row = await this.deps.repo.settings();
    if (!row?.enabled) return { enabled: false, buttonName: '', tenantPasswordLogin: true };
    return { enabled: true, buttonName: row.buttonName, tenantPasswordLogin: row.tenantPasswordLogin };
  }

  /** Saves the settings; a missing secret keeps the stored one (for the same provider and client only). */
  async replace(actor: Actor, input: SsoSettingsInput, redirectUri: string): Promise<SsoSettings> {
    const { db, repo, audit, clock } = this.deps;
    const box = input.clientSecret === undefined ? undefined : await this.deps.secrets();
    const saved = await db.transaction(async (tx) => {
      const current = await repo.lockSettings(tx);
      const sameClient = current.issuer === input.issuer && current.clientId === input.clientId;
      const kept = sameClient ? current.clientSecretEncrypted : null;
      const clientSecretEncrypted = box && input.clientSecret ? box.seal(input.clientSecret, SECRET_PURPOSE) : kept;
      if (input.enabled && !clientSecretEncrypted) {
        throw new AppError('validation', { fields: { clientSecret: 'sso.clientSecretRequired' } });
      }
      const next: SsoSettingsValues = {
        enabled: input.enabled,
        issuer: input.issuer,
        clientId: input.clientId,
        clientSecretEncrypted,
        scopes: input.scopes,
        accountClaim: input.accountClaim,
        buttonName: input.buttonName,
        unknownAccount: input.unknownAccount,
        tenantType: input.tenantType,
        tenantIndustry: input.tenantIndustry,
        tenantPasswordLogin: input.tenantPasswordLogin,
      };
      await repo.writeSettings(tx, next, clock());
      await audit.record(
        actor,
        {
          action: 'ssoSettings.update',
          objectType: 'settings',
          objectId: 'sso',
          detail: { ...changedFields(current, next), clientSecretChanged: input.clientSecret !== undefined },
        },
        tx,
      );
      return next;
    });
    this.deps.rp.forget();
    return present(saved, redirectUri);
  }

  /** Starts a sign-in: the provider's authorization URL and the browser's binding cookie. */
  async start(returnTo: string | undefined, redirectUri: string): Promise<SsoStart> {
    const { row, provider } = await this.enabled();
    const state = random();
    const nonce = random();
    const codeVerifier = random();
    const browser = random();
    const location = await this.reach(() =>
      this.deps.rp.authorizationUrl(provider, { redirectUri, scope: row.scopes, state, nonce, codeVerifier }),
    );
    await this.deps.repo.addLogin({
      idHash: sha256(state),
      kind: 'state',
      browserHash: sha256(browser),
      nonce,
      codeVerifier,
      redirectUri,
      returnPath: safeReturnPath(returnTo, HOME),
      userId: null,
      expiresAt: new Date(this.deps.clock().getTime() + SSO_LIMITS.loginTtlSeconds * 1000),
    });
    return { location: location.href, browser };
  }

  /**
   * The provider's answer. The state is taken (deleted) first, so an answer is handled once whatever
   * follows; it must come back to the browser that started it (`browser`, the cookie).
   */
  async callback(callbackUrl: URL, browser: string | undefined, ip: string): Promise<SsoOutcome> {
    const state = callbackUrl.searchParams.get('state');
    if (!state || !browser) return { error: new AppError('ssoFailed') };
    const now = this.deps.clock();
    const started = await this.deps.repo.takeLogin(sha256(state), 'state', now);
    if (!started || !sameHash(started.browserHash, sha256(browser))) return { error: new AppError('ssoFailed') };
    let row: SsoSettingsRow;
    let provider: { issuer: string; clientId: string; clientSecret: string };
    try {
      ({ row, provider } = await this.enabled());
    } catch (error) {
      if (error instanceof AppError) return { error };
      throw error;
    }
    // The provider's answer as received on the callback URL the sign-in started with.
    const answer = new URL(started.redirectUri);
    answer.search = callbackUrl.search;
    let claims: Record<string, unknown>;
    try {
      claims = await this.reach(() =>
        this.deps.rp.claims(provider, answer, {
          state,
          nonce: started.nonce,
          codeVerifier: started.codeVerifier,
          claim: row.accountClaim,
        }),
      );
    } catch (error) {
      if (error instanceof AppError) return { error };
      // What the provider or the token failed is logged (never a secret, a code or a token); the user sees one message.
      this.deps.log.warn({ reason: describe(error) }, 'single sign-on answer refused');
      return { error: new AppError('ssoFailed') };
    }
    const raw = claims[row.accountClaim];
    const account = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
    if (!account || account.length > 256) {
      return { error: new AppError('ssoFailed', { fields: { sso: 'sso.noAccountClaim' } }) };
    }
    const outcome = await this.account(row, account, ip);
    if ('error' in outcome) return outcome;
    const ticket = random();
    const nextBrowser = random();
    await this.deps.repo.addLogin({
      idHash: sha256(ticket),
      kind: 'ticket',
      browserHash: sha256(nextBrowser),
      returnPath: started.returnPath,
      userId: outcome.user.id,
      nonce: '',
      codeVerifier: '',
      redirectUri: '',
      expiresAt: new Date(now.getTime() + SSO_LIMITS.ticketTtlSeconds * 1000),
    });
    return { ticket, browser: nextBrowser };
  }

  /** The ticket traded, once and from the same browser, for a session; the sign-in audited with it. */
  async redeem(
    ticket: string,
    browser: string | undefined,
    ip: string,
  ): Promise<LoginResponse & { returnPath: string }> {
    const { db, repo, users, auth, audit, clock } = this.deps;
    if (!browser) throw new AppError('ssoFailed');
    return db.transaction(async (tx) => {
      const taken = await repo.takeLogin(sha256(ticket), 'ticket', clock(), tx);
      if (!taken?.userId || !sameHash(taken.browserHash, sha256(browser))) throw new AppError('ssoFailed');
      const user = await users.findById(taken.userId, tx);
      if (!user) throw new AppError('ssoFailed');
      if (!user.status) throw new AppError('accountDisabled', { fields: { user: 'auth.disabled' } });
      const session = await auth.startSession(user, ip, { db: tx });
      await audit.record(
        { user, ip },
        { action: 'sso.login', objectType: 'tenant', objectId: user.id, tenantId: user.id },
        tx,
      );
      return { ...session, returnPath: taken.returnPath };
    });
  }

  async cleanUp(): Promise<void> {
    await this.deps.repo.deleteExpiredLogins(this.deps.clock());
  }

  /** The tenant the identity signs in as: linked, named by it, or (when allowed) made for it. */
  private async account(
    row: SsoSettingsRow,
    account: string,
    ip: string,
  ): Promise<{ user: UserRow } | { error: AppError }> {
    const { db, repo, users, tenants, audit, clock } = this.deps;
    const linked = await repo.linkedUser(row.issuer, account);
    const id = linked ?? (USER_ID_PATTERN.test(account) ? account : undefined);
    const found = id === undefined ? undefined : await users.findById(id);
    if (found?.isAdmin) return { error: new AppError('ssoAdminRefused') };
    if (found && !found.status)
      return { error: new AppError('accountDisabled', { fields: { user: 'auth.disabled' } }) };
    if (found) return { user: found };
    const who = { id: account.slice(0, 64), name: account.slice(0, TENANT_NAME_MAX), ip };
    const detail = { account, issuer: row.issuer };
    if (row.unknownAccount !== 'create') {
      await db.transaction((tx) => audit.recordBy(who, { action: 'sso.refused', objectType: 'platform', detail }, tx));
      return { error: new AppError('ssoUnknownAccount') };
    }
    const newId = id && id !== 'admin' && id !== 'count' ? id : `t${randomBytes(5).toString('hex')}`;
    const created = await db.transaction(async (tx) => {
      const values = {
        name: account.slice(0, TENANT_NAME_MAX),
        type: row.tenantType,
        industry: row.tenantIndustry,
        grant: null,
        permissions: { ownTemplates: true, marketTemplates: true, blankProjects: true },
      };
      // No password: the tenant signs in through the provider until the administrator sets one.
      if (!(await tenants.create(tx, newId, values, null, clock()))) return false;
      await repo.link(tx, row.issuer, account, newId);
      await audit.recordBy(
        who,
        { action: 'sso.tenantCreate', objectType: 'tenant', objectId: newId, tenantId: newId, detail },
        tx,
      );
      return true;
    });
    const user = created ? await users.findById(newId) : undefined;
    // Taken meanwhile by another sign-in or the administrator: refused rather than joined to it.
    return user ? { user } : { error: new AppError('ssoUnknownAccount') };
  }

  private async enabled(): Promise<{
    row: SsoSettingsRow;
    provider: { issuer: string; clientId: string; clientSecret: string };
  }> {
    const row = await this.deps.repo.settings();
    if (!row?.enabled || !row.clientSecretEncrypted) throw new AppError('ssoDisabled');
    const box = await this.deps.secrets();
    let clientSecret: string;
    try {
      clientSecret = box.open(row.clientSecretEncrypted, SECRET_PURPOSE);
    } catch {
      this.deps.log.warn({}, 'the stored SSO client secret cannot be decrypted (the secret key changed)');
      throw new AppError('ssoProviderUnavailable');
    }
    return { row, provider: { issuer: row.issuer, clientId: row.clientId, clientSecret } };
  }

  /** A call to the provider: one it cannot answer is `ssoProviderUnavailable` (502), logged. */
  private async reach<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ProviderUnavailable)) throw error;
      this.deps.log.warn({ reason: describe(error) }, 'the single sign-on provider cannot be reached');
      throw new AppError('ssoProviderUnavailable');
    }
  }
}

/** Whether `user` may sign in with a password now: the administrator always, tenants unless SSO turned it off. */
export async function passwordLoginAllowed(repo: SsoRepository, user: UserRow): Promise<boolean> {
  if (user.isAdmin) return true;
  const row = await repo.settings();
  return !row?.enabled || row.tenantPasswordLogin;
}

function present(row: SsoSettingsValues, redirectUri: string): SsoSettings {
  const { clientSecretEncrypted, ...rest } = row;
  return { ...rest, clientSecretSet: clientSecretEncrypted !== null, redirectUri };
}

/** The error's message and code and its cause's (openid-client's errors name the failed check). */
function describe(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 3; depth++) {
    const code = 'code' in current && typeof current.code === 'string' ? ` (${current.code})` : '';
    parts.push(`${current.message}${code}`);
    current = current.cause;
  }
  return parts.join(': ') || String(error);
}

/** The fields that changed, old → new (never the secret). */
function changedFields(before: SsoSettingsValues, after: SsoSettingsValues): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(after) as Array<keyof SsoSettingsValues>) {
    if (key === 'clientSecretEncrypted') continue;
    if (before[key] !== after[key]) changed[key] = { from: before[key], to: after[key] };
  }
  return changed;
}

import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  API_TOKENS_PER_ACCOUNT,
  type ApiTokenCreated,
  type ApiTokenView,
  type CreateApiTokenBody,
} from '@gantry/shared';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { RequestAuth } from '../../plugins/types.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { hashToken } from '../auth/auth.service.js';
import type { ApiTokenRepository, ApiTokenRow } from './api-token.repository.js';

const DAY_MS = 86_400_000;
/** Last use is written at most this often per token (a script's every call costs no write). */
const TOUCH_MS = 60_000;
/** Expired tokens stay listed (as expired) this long, then are forgotten. */
const KEEP_EXPIRED_MS = 30 * DAY_MS;

export interface ApiTokenDeps {
  db: Database;
  repo: ApiTokenRepository;
  audit: AuditService;
  clock: Clock;
}

export function apiTokenView(row: ApiTokenRow): ApiTokenView {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    scope: row.scope,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokeOnPasswordChange: row.revokeOnPasswordChange,
  };
}

const sameHash = (a: string, b: string) => {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * Personal API tokens (issue 34 §3): made, listed and revoked from the personal centre (the
 * administrator lists and revokes everyone's); sent as `Authorization: Bearer gty_…`, they act as
 * their account (scope 'all') or only read (scope 'read', enforced in plugins/auth.ts).
 */
export class ApiTokenService {
  constructor(private readonly deps: ApiTokenDeps) {}

  /** A new token: answered once, with the token itself; stored as its SHA-256 only. */
  async create(actor: Actor, body: Required<CreateApiTokenBody>): Promise<ApiTokenCreated> {
    const { db, repo, audit, clock } = this.deps;
    const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = clock();
    const created = await db.transaction(async (tx) => {
      if ((await repo.countOf(actor.user.id, tx)) >= API_TOKENS_PER_ACCOUNT) throw new AppError('apiTokenLimit');
      const row = await repo.create(
        {
          id: randomBytes(9).toString('base64url'),
          userId: actor.user.id,
          name: body.name,
          tokenHash: hashToken(token),
          scope: body.scope,
          revokeOnPasswordChange: body.revokeOnPasswordChange,
          createdAt: now,
          expiresAt: new Date(now.getTime() + body.expiresInDays * DAY_MS),
        },
        tx,
      );
      await audit.record(
        actor,
        {
          action: 'account.apiToken.create',
          objectType: 'account',
          objectId: actor.user.id,
          detail: { tokenId: row.id, name: row.name, scope: row.scope, expiresAt: row.expiresAt.toISOString() },
        },
        tx,
      );
      return row;
    });
    return { ...apiTokenView(created), token };
  }

  async list(userId?: string): Promise<ApiTokenView[]> {
    return (await this.deps.repo.list(userId)).map(apiTokenView);
  }

  /** Revokes a token: one of the caller's own, or, for the administrator (`any`), anyone's. */
  async revoke(actor: Actor, id: string, any = false): Promise<void> {
    const { db, repo, audit } = this.deps;
    await db.transaction(async (tx) => {
      const row = await repo.delete(id, any ? undefined : actor.user.id, tx);
      if (!row) throw new AppError('notFound');
      await audit.record(
        actor,
        {
          action: 'account.apiToken.revoke',
          objectType: 'account',
          objectId: row.userId,
          tenantId: row.userId === actor.user.id ? undefined : row.userId,
          detail: { tokenId: row.id, name: row.name },
        },
        tx,
      );
    });
  }

  /** The caller behind an API token, if it is alive (unexpired, unrevoked, its account enabled). */
  async authenticate(token: string): Promise<RequestAuth | undefined> {
    const { repo, clock } = this.deps;
    const tokenHash = hashToken(token);
    const now = clock();
    const found = await repo.findActive(tokenHash, now);
    // Found by its hash's index; the hash compared once more in constant time all the same.
    if (!found || !sameHash(found.token.tokenHash, tokenHash)) return undefined;
    const { token: row, user } = found;
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= TOUCH_MS) await repo.touch(row.id, now);
    return { user, expiresAt: row.expiresAt, tokenHash, apiToken: { id: row.id, name: row.name, scope: row.scope } };
  }

  /** A password changed: its account's tokens made to end with it end. */
  passwordChanged(userId: string): Promise<void> {
    return this.deps.repo.deleteOnPasswordChange(userId);
  }

  cleanUp(): Promise<void> {
    return this.deps.repo.deleteExpired(new Date(this.deps.clock().getTime() - KEEP_EXPIRED_MS));
  }
}

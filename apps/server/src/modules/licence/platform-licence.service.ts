import { createHash, randomUUID } from 'node:crypto';
import {
  ADMIN_USER_ID,
  canonicalJson,
  dateOfDay,
  effectiveFeatures,
  type Grant,
  type GrantView,
  grantActive,
  grantEndDay,
  LICENCE_REMINDER_DAYS,
  type LicenceChanges,
  type LicenceState,
  type LicenceSummary,
  localDate,
  type MachineView,
  MEASURE_PATHS,
  type MessageKey,
  measureOf,
  PLATFORM_PRODUCT,
  remainingDays,
  viewGrant,
} from '@gantry/shared';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import { maySeeMachineCodes } from '../../policy/policy.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { UserRow } from '../users/user.repository.js';
import type { LicenceRepository, PlatformRecord } from './licence.repository.js';
import type { LicenceHistoryRepository } from './licence-history.repository.js';
import { type TrustedKey, type VerifiedLicence, verifyLicenceText } from './licence-signature.js';
import { type MachineIdentity, machineCodeOf, machineFieldsOf, platformCodeOf } from './machine-identity.js';

/** The grant a user holds and the features usable now (`login/current/user`). Shared: never change it. */
export type Holding = Readonly<{ grant: GrantView | null; features: string[] }>;

/** Why the platform licence does not grant anything now, as a message with its parameters. */
export interface LicenceReason {
  code: 'licenceMissing' | 'licenceExpired' | 'licenceNotYetValid' | 'licenceMachine' | 'licenceUntrusted';
  key: MessageKey;
  params: Record<string, string | number>;
}

export interface PlatformStatus {
  state: LicenceState | 'missing';
  reason: LicenceReason | null;
  record: PlatformRecord | undefined;
  verified: VerifiedLicence | undefined;
}

export interface PlatformLicenceDeps {
  db: Database;
  repo: LicenceRepository;
  history: LicenceHistoryRepository;
  audit: AuditService;
  clock: Clock;
  trusted: readonly TrustedKey[];
  production: boolean;
  /** This machine's identity; read once. */
  machine: () => Promise<MachineIdentity>;
  /**
   * Given (GANTRY_LICENCE_BINDING=platform), licences are bound to the platform's identity in its
   * database instead of this machine's hardware: the machine code is `platformCodeOf` it.
   */
  platformId?: () => Promise<string>;
  /**
   * Where installed licences are announced (LicenceRepository.install publishes). Given, the
   * installed licence is cached (LICENCE_CACHE_MS at most); absent, every status reads it.
   */
  bus?: InvalidationBus;
}

/** How long a process trusts its copy of the installed licence; changes are announced at once on the bus. */
export const LICENCE_CACHE_MS = 5_000;

/**
 * The platform licence (design D7): a signed file bound to this machine (or, with
 * GANTRY_LICENCE_BINDING=platform, to the platform's identity). Verifies and applies
 * uploaded files, says whether the installed one grants anything today, and gates the calls that
 * need it. Allocation below the platform is `LicenceService`'s.
 */
export class PlatformLicenceService {
  private identity: Promise<MachineView & { identity: MachineIdentity }> | undefined;
  /** Verification of the installed file's text, remembered (the text changes only on upload). */
  private verifiedCache: { text: string; result: VerifiedLicence | AppError } | undefined;
  /** The installed licence as last read (one read shared by concurrent callers), and when. */
  private recordCache: { record: Promise<PlatformRecord | undefined>; at: number } | undefined;
  /** The last `holding` answer per user row (rows and records are never changed: a new read is a new object). */
  private readonly held = new WeakMap<
    UserRow,
    { record: PlatformRecord | undefined; state: PlatformStatus['state']; today: string; holding: Holding }
  >();
  /** What `signed` said of each record read (a record is never changed: a new read is a new object). */
  private readonly signedOf = new WeakMap<PlatformRecord, VerifiedLicence | LicenceReason>();

  constructor(private readonly deps: PlatformLicenceDeps) {
    deps.bus?.subscribe((change) => {
      if (change.kind === 'licence' || change.kind === 'all') this.forget();
    });
  }

  /** Drops the cached licence (and a platform binding's identity, which a platform restore replaces): the next status reads them. */
  forget(): void {
    this.recordCache = undefined;
    if (this.deps.platformId) this.identity = undefined;
  }

  /**
   * The installed licence outside any transaction: cached when a bus announces changes. A read
   * that an announced change overtook is still answered, but not kept (`forget` dropped it).
   */
  private installed(): Promise<PlatformRecord | undefined> {
    if (!this.deps.bus) return this.deps.repo.platform();
    const now = performance.now();
    if (this.recordCache && now - this.recordCache.at < LICENCE_CACHE_MS) return this.recordCache.record;
    const entry = { record: this.deps.repo.platform(), at: now };
    this.recordCache = entry;
    entry.record.catch(() => {
      if (this.recordCache === entry) this.recordCache = undefined;
    });
    return entry.record;
  }

  private today(): string {
    return localDate(this.deps.clock());
  }

  /** This machine's identity and the code licences are bound to, read and computed once (every status needs the code). */
  machine(): Promise<MachineView & { identity: MachineIdentity }> {
    // A failed read is not kept: the next call reads again.
    this.identity ??= Promise.all([this.deps.machine(), this.deps.platformId?.()]).then(
      ([identity, platformId]) => ({
        machineCode: platformId === undefined ? machineCodeOf(identity) : platformCodeOf(platformId),
        machine: machineFieldsOf(identity),
        identity,
      }),
      (error: unknown) => {
        this.identity = undefined;
        throw error;
      },
    );
    return this.identity;
  }

  private verify(text: string): VerifiedLicence {
    return verifyLicenceText(text, this.deps.trusted, this.deps.production);
  }

  private verifyInstalled(text: string): VerifiedLicence | AppError {
    if (this.verifiedCache?.text !== text) {
      let result: VerifiedLicence | AppError;
      try {
        result = this.verify(text);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        result = error;
      }
      this.verifiedCache = { text, result };
    }
    return this.verifiedCache.result;
  }

  /** The validity window of a grant today, as a refusal or null. */
  private windowProblem(grant: Grant): LicenceReason | null {
    const today = this.today();
    if (today < grant.startTime) {
      return { code: 'licenceNotYetValid', key: 'licence.notYetValid', params: { date: grant.startTime } };
    }
    if (remainingDays(grant, today) <= 0) {
      return { code: 'licenceExpired', key: 'licence.expiredOn', params: { date: dateOfDay(grantEndDay(grant)) } };
    }
    return null;
  }

  /**
   * The installed file verified, or why it is not trusted. The grant in force is the signed one: a
   * grant column that differs from the file's (edited in the database) grants nothing, like an altered file.
   */
  private signed(record: PlatformRecord): VerifiedLicence | LicenceReason {
    let known = this.signedOf.get(record);
    if (!known) {
      known = this.signedNow(record);
      this.signedOf.set(record, known);
    }
    return known;
  }

  private signedNow(record: PlatformRecord): VerifiedLicence | LicenceReason {
    let verified = record.text === null ? new AppError('licenceMalformed') : this.verifyInstalled(record.text);
    if (!(verified instanceof AppError) && canonicalJson(record.grant) !== canonicalJson(verified.document.grant)) {
      verified = new AppError('licenceSignature');
    }
    if (!(verified instanceof AppError)) return verified;
    const key: MessageKey =
      verified.code === 'licenceDevelopment'
        ? 'licence.development'
        : verified.code === 'licenceUntrusted'
          ? 'licence.untrusted'
          : 'licence.signature';
    // Only 'licence.untrusted' names the key, and that refusal carries its keyId.
    return { code: 'licenceUntrusted', key, params: verified.options.params ?? {} };
  }

  /**
   * The platform grant that tenant and platform-project grants are allocated from: the stored grant
   * only while the stored file is trusted and signs exactly it, else refused with the reason (an
   * expired or other-machine licence still bounds edits by what it signed).
   */
  signedGrant(record: PlatformRecord): Grant {
    const verified = this.signed(record);
    if (!('document' in verified)) {
      throw new AppError(verified.code, { params: verified.params, message: verified.key });
    }
    return record.grant;
  }

  /** The installed licence's state now; inside a transaction pass it as `db` (read there, uncached). */
  async status(db?: Database): Promise<PlatformStatus> {
    const record = db ? await this.deps.repo.platform(db) : await this.installed();
    if (!record) {
      return {
        state: 'missing',
        reason: { code: 'licenceMissing', key: 'licence.none', params: {} },
        record,
        verified: undefined,
      };
    }
    const verified = this.signed(record);
    if (!('document' in verified)) {
      return { state: 'untrusted', reason: verified, record, verified: undefined };
    }
    const { machineCode } = await this.machine();
    if (verified.document.machineCode !== machineCode) {
      return {
        state: 'otherMachine',
        reason: {
          code: 'licenceMachine',
          key: 'licence.otherMachine',
          params: { licensed: verified.document.machineCode, machine: machineCode },
        },
        record,
        verified,
      };
    }
    const window = this.windowProblem(record.grant);
    if (window) {
      return { state: window.code === 'licenceExpired' ? 'expired' : 'notYetValid', reason: window, record, verified };
    }
    return { state: 'valid', reason: null, record, verified };
  }

  /**
   * The refusal for `reason`. Only the administrator is told the machine codes (GET license/machine
   * is theirs alone); a tenant learns that the licence belongs to another machine, not this one's code.
   */
  private refusal(reason: LicenceReason, user: UserRow | undefined, message: MessageKey = reason.key): AppError {
    if (reason.code === 'licenceMachine' && !maySeeMachineCodes(user)) {
      return new AppError(reason.code, { message: 'licence.otherMachineHidden' });
    }
    return new AppError(reason.code, { params: reason.params, message });
  }

  /**
   * Refuses a call that needs a valid platform licence (adding projects and tenants) with the
   * reason in `license`. Without any licence, adding a project says the spec's 'upload a licence
   * before adding projects'. `user`: the caller (what the refusal may tell it is the policy's).
   */
  async assertUsable(what: 'project' | 'tenant', user: UserRow, db?: Database): Promise<PlatformStatus> {
    const status = await this.status(db);
    if (status.reason) {
      const message = status.state === 'missing' && what === 'project' ? 'licence.missing' : status.reason.key;
      throw this.refusal(status.reason, user, message);
    }
    return status;
  }

  /**
   * Refuses a call that needs `feature` when the valid platform licence lacks it, or when the
   * project's owner is a tenant whose own (current) grant lacks it. Inside a transaction pass it as
   * `db`: on PGlite a read outside an open transaction waits for it to end.
   */
  async assertFeature(
    feature: string,
    options: { db?: Database; ownerId?: string; user?: UserRow } = {},
  ): Promise<void> {
    const status = await this.status(options.db);
    if (status.reason) throw this.refusal(status.reason, options.user);
    let features = effectiveFeatures(status.record?.grant.features);
    if (options.ownerId && options.ownerId !== ADMIN_USER_ID) {
      const tenant = await this.deps.repo.tenantGrant(options.db ?? this.deps.db, options.ownerId, false);
      const grant = tenant?.grant ?? null;
      const own = grant && grantActive(grant, this.today()) ? effectiveFeatures(grant.features) : new Set<string>();
      features = new Set([...features].filter((f) => own.has(f)));
    }
    if (!features.has(feature)) throw new AppError('featureMissing', { params: { feature } });
  }

  /**
   * The grant a user holds (the platform's for the administrator, its own for a tenant) and the
   * features usable now: the platform licence must be valid, a tenant's own grant current, and a
   * tenant keeps only the features the platform still grants.
   */
  async holding(user: UserRow): Promise<Holding> {
    const { state, record } = await this.status();
    const today = this.today();
    // Asked on every page of the console: the same user row, licence and day give the same answer.
    const known = this.held.get(user);
    if (known && known.record === record && known.state === state && known.today === today) return known.holding;
    const holding = this.holdingOf(user, state, record, today);
    this.held.set(user, { record, state, today, holding });
    return holding;
  }

  private holdingOf(
    user: UserRow,
    state: PlatformStatus['state'],
    record: PlatformRecord | undefined,
    today: string,
  ): Holding {
    const platform = state === 'valid' && record ? effectiveFeatures(record.grant.features) : new Set<string>();
    if (user.isAdmin) {
      return { grant: record ? viewGrant(record.grant, today) : null, features: [...platform].sort() };
    }
    const { grant } = user;
    if (!grant) return { grant: null, features: [] };
    const own = grantActive(grant, today) ? effectiveFeatures(grant.features) : new Set<string>();
    return { grant: viewGrant(grant, today), features: [...own].filter((f) => platform.has(f)).sort() };
  }

  summaryOf(verified: VerifiedLicence): LicenceSummary {
    const { document } = verified;
    return {
      licenceId: document.id,
      product: document.product,
      machineCode: document.machineCode,
      issuedAt: document.issuedAt,
      licensee: document.licensee ?? null,
      keyId: verified.keyId,
      development: verified.development,
      grant: viewGrant(document.grant, this.today()),
    };
  }

  /** The installed licence for `license/info`, with its state; undefined when none. */
  async info() {
    const status = await this.status();
    const { record, state } = status;
    if (!record || state === 'missing') return undefined;
    const days = remainingDays(record.grant, this.today());
    return {
      status,
      state,
      remainingDays: Math.max(0, days),
      reminder: status.state === 'valid' && days < LICENCE_REMINDER_DAYS,
      summary: status.verified
        ? this.summaryOf(status.verified)
        : {
            licenceId: '',
            product: PLATFORM_PRODUCT,
            machineCode: '',
            issuedAt: record.installedAt.toISOString(),
            licensee: null,
            keyId: '',
            development: false,
            grant: viewGrant(record.grant, this.today()),
          },
      installedAt: record.installedAt.toISOString(),
    };
  }

  /**
   * Every check an uploaded file must pass, in order: size and form, trusted key, signature,
   * product, this machine, validity today, and (given the platform's current allocations) that it
   * grants at least what is already handed out.
   */
  private async checkFile(text: string, db: Database, current: PlatformRecord | undefined) {
    const verified = this.verify(text);
    const { document } = verified;
    if (document.product !== PLATFORM_PRODUCT) {
      throw new AppError('licenceProduct', { params: { product: document.product, expected: PLATFORM_PRODUCT } });
    }
    const { machineCode } = await this.machine();
    if (document.machineCode !== machineCode) {
      throw new AppError('licenceMachine', { params: { licensed: document.machineCode, machine: machineCode } });
    }
    const window = this.windowProblem(document.grant);
    if (window) throw new AppError(window.code, { params: window.params });
    const allocated = await this.deps.repo.allocatedByPlatform(db);
    for (const path of MEASURE_PATHS) {
      const granted = measureOf(document.grant, path);
      const handedOut = allocated[path] ?? 0;
      if (granted !== undefined && handedOut > granted) {
        throw new AppError('licenceTooSmall', {
          params: { label: `grant.label.${path}`, granted, allocated: handedOut },
        });
      }
    }
    return { verified, changes: changesBetween(current?.grant, document.grant) };
  }

  /** Verifies a file without changing anything: what the wizard shows before applying. */
  async check(text: string) {
    const current = await this.deps.repo.platform();
    const { verified, changes } = await this.checkFile(text, this.deps.db, current);
    return { licence: this.summaryOf(verified), changes, applied: false };
  }

  /**
   * Applies a file: re-checks it with the platform row locked (allocations queue behind it), then
   * installs it, adds the licence-history row and the audit entry, all in one transaction. A refused
   * file changes nothing.
   */
  async apply(text: string, actor: Actor) {
    const { machine, machineCode } = await this.machine();
    const applied = await this.deps.db.transaction(async (tx) => {
      const current = await this.deps.repo.platform(tx, true);
      const { verified, changes } = await this.checkFile(text, tx, current);
      const { document } = verified;
      const now = this.deps.clock();
      await this.deps.repo.install(document.grant, text, tx, now);
      await this.deps.history.add(
        {
          id: randomUUID(),
          ...machine,
          machineCode,
          licenceId: document.id,
          product: document.product,
          keyId: verified.keyId,
          issuedAt: new Date(document.issuedAt),
          licensee: document.licensee ?? null,
          startTime: document.grant.startTime,
          endTime: dateOfDay(grantEndDay(document.grant)),
          validityPeriod: document.grant.validityPeriod,
          userCount: document.grant.userCount,
          features: document.grant.features,
          grant: document.grant,
          appliedBy: actor.user.id,
          fileSha256: createHash('sha256').update(text).digest('hex'),
        },
        tx,
        now,
      );
      await this.deps.audit.record(
        actor,
        {
          action: 'licence.apply',
          objectType: 'licence',
          objectId: document.id,
          detail: { product: document.product, keyId: verified.keyId, machineCode, changes },
        },
        tx,
      );
      return { licence: this.summaryOf(verified), changes, applied: true };
    });
    // The install announced itself inside the transaction; a read here between that and the commit
    // (PostgreSQL answers the old row meanwhile) must not be what this process keeps.
    this.forget();
    return applied;
  }
}

/** What differs between the installed grant and a new one. */
export function changesBetween(before: Grant | undefined, after: Grant): LicenceChanges {
  const measures = MEASURE_PATHS.flatMap((path) => {
    const a = before ? (measureOf(before, path) ?? null) : null;
    const b = measureOf(after, path) ?? null;
    return a === b ? [] : [{ path, before: a, after: b }];
  });
  const period: LicenceChanges['period'] = [];
  const endOf = (g: Grant) => dateOfDay(grantEndDay(g));
  if (before?.startTime !== after.startTime) {
    period.push({ field: 'startTime', before: before?.startTime ?? null, after: after.startTime });
  }
  if (!before || endOf(before) !== endOf(after)) {
    period.push({ field: 'endTime', before: before ? endOf(before) : null, after: endOf(after) });
  }
  if (before?.validityPeriod !== after.validityPeriod) {
    period.push({ field: 'validityPeriod', before: before?.validityPeriod ?? null, after: after.validityPeriod });
  }
  const was = effectiveFeatures(before?.features);
  const now = effectiveFeatures(after.features);
  was.delete('BI');
  now.delete('BI');
  return {
    first: !before,
    measures,
    period,
    featuresAdded: [...now].filter((f) => !was.has(f)).sort(),
    featuresRemoved: [...was].filter((f) => !now.has(f)).sort(),
  };
}

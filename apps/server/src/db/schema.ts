import type {
  Grant,
  Industry,
  JobState,
  ProjectAdvanced,
  ProjectPermissions,
  ProjectType,
  RecordState,
  RestoreRule,
  TableSetting,
  TaskState,
  UsageReport,
} from '@gantry/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Console accounts: the platform administrator ('admin') and the tenants. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** argon2id hash of the wire password (itself a SHA-256 hex); null until set. */
    passwordHash: text('password_hash'),
    status: boolean('status').notNull().default(true),
    protectUrl: text('protect_url'),
    tableSettings: jsonb('table_settings').$type<Record<string, TableSetting>>().notNull().default(sql`'{}'::jsonb`),
    /** Tenant fields (console.md §3): 0 personal, 1 enterprise. */
    type: integer('type').notNull().default(0),
    industry: text('industry'),
    /** The tenant's licence grant (shared `grantSchema`); null for the administrator. */
    grant: jsonb('grant').$type<Grant>(),
    permissions: jsonb('permissions')
      .$type<ProjectPermissions>()
      .notNull()
      .default(sql`'{"ownTemplates":true,"marketTemplates":true,"blankProjects":true}'::jsonb`),
    remarks: text('remarks'),
    logo: text('logo'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('users_created_idx').on(t.createdAt, t.id),
    /** `like` on the name (pg_trgm): list filters are case-insensitive regular expressions. */
    index('users_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

/** Projects. Owner 'admin' marks platform projects. */
export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    status: boolean('status').notNull().default(true),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    industry: text('industry'),
    grant: jsonb('grant').$type<Grant>(),
    projectType: text('project_type').$type<ProjectType>().notNull().default('blank'),
    templateId: text('template_id'),
    hasSso: boolean('has_sso').notNull().default(false),
    remarks: text('remarks'),
    bgColor: text('bg_color'),
    domain: text('domain'),
    /** Lowercased domain without scheme, unique among projects. */
    domainKey: text('domain_key'),
    isUseDomain: boolean('is_use_domain').notNull().default(false),
    isUseHttps: boolean('is_use_https').notNull().default(false),
    port: integer('port'),
    /** Read through `advancedSchema` (its defaults fill what an older row lacks). */
    advanced: jsonb('advanced').$type<Partial<ProjectAdvanced>>().notNull().default(sql`'{}'::jsonb`),
    planId: text('plan_id'),
    logo: text('logo'),
    extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    /** Storage keys of the uploaded certificate files. */
    certKey: text('cert_key'),
    certPem: text('cert_pem'),
    /** SHA-256 of the key a project runtime reports usage with. */
    runtimeKeyHash: text('runtime_key_hash'),
    /** Latest usage report: amounts in use, devices by type, when. */
    usage: jsonb('usage').$type<UsageReport['usage']>(),
    stats: jsonb('stats').$type<UsageReport['_stats_']>().notNull().default(sql`'[]'::jsonb`),
    online: boolean('online').notNull().default(false),
    usageReportedAt: timestamp('usage_reported_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('projects_created_idx').on(t.createdAt, t.id),
    index('projects_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('projects_status_created_idx').on(t.status, t.createdAt, t.id),
    /** Sorting by name (and `project/available`); `like` on the name uses the trigram index. */
    index('projects_name_idx').on(t.name, t.id),
    index('projects_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    uniqueIndex('projects_port_key').on(t.port),
    uniqueIndex('projects_domain_key').on(t.domainKey),
  ],
);

/**
 * Projects per owner and status, kept exact by statement triggers on `projects` (migration
 * 0006_project_counts): the unfiltered list totals (all projects, a tenant's own, either by status)
 * are read from here instead of counting rows. Rows are never deleted; an owner without projects
 * keeps zeros.
 */
export const projectCounts = pgTable(
  'project_counts',
  {
    userId: text('user_id').notNull(),
    status: boolean('status').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.status] })],
);

/**
 * The last number given per counter (`project.<field>`: a project extension field's serial numbers).
 * One row each, updated under its row lock: numbers never repeat, and a create scans no projects.
 */
export const serialCounters = pgTable('serial_counters', {
  name: text('name').primaryKey(),
  last: bigint('last', { mode: 'number' }).notNull(),
});

/** Installed platform licences; the one named 'platform-spm' grants the platform (design D7). */
export const licences = pgTable('licences', {
  id: text('id').primaryKey(),
  grant: jsonb('grant').$type<Grant>().notNull(),
  /** The signed file as uploaded (its exact text), re-verified whenever the licence's state is read. */
  document: jsonb('document').$type<{ text?: unknown }>(),
  installedAt: timestamp('installed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Licence history (console.md §3, "machine information"): one row per applied licence file, with the
 * machine it was applied on. Windows rows fill the Windows field set, other rows `uuid` and `biosAddr`.
 */
export const licenceHistory = pgTable(
  'licence_history',
  {
    id: text('id').primaryKey(),
    time: timestamp('time', { withTimezone: true }).notNull().defaultNow(),
    platform: text('platform').$type<'windows' | 'other'>().notNull(),
    cpuId: text('cpu_id').notNull(),
    uuid: text('uuid'),
    biosAddr: text('bios_addr'),
    baseBoardSerialNumber: text('base_board_serial_number'),
    biosSerialNumber: text('bios_serial_number'),
    biosVersion: text('bios_version'),
    macAddress: text('mac_address'),
    machineCode: text('machine_code').notNull(),
    licenceId: text('licence_id').notNull(),
    product: text('product').notNull(),
    keyId: text('key_id').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    licensee: text('licensee'),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    validityPeriod: integer('validity_period').notNull(),
    userCount: integer('user_count').notNull(),
    features: jsonb('features').$type<string[]>().notNull(),
    grant: jsonb('grant').$type<Grant>().notNull(),
    appliedBy: text('applied_by').notNull(),
    fileSha256: text('file_sha256').notNull(),
  },
  (t) => [index('licence_history_time_idx').on(t.time, t.id)],
);

/** Administrative actions: who, what, which object, when, from where. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: text('actor_id').notNull(),
    actorName: text('actor_name').notNull(),
    /** The tenant the action concerns, so a tenant can be shown its own entries. */
    tenantId: text('tenant_id'),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id'),
    ip: text('ip'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('audit_at_idx').on(t.at, t.id),
    index('audit_tenant_at_idx').on(t.tenantId, t.at, t.id),
    /** The console's audit filters: `like` on the action and on who (id or name). */
    index('audit_like_trgm_idx').using(
      'gin',
      t.action.op('gin_trgm_ops'),
      t.actorId.op('gin_trgm_ops'),
      t.actorName.op('gin_trgm_ops'),
    ),
    /** The audit filter by target (object id) and time. */
    index('audit_object_at_idx').on(t.objectId, t.at, t.id),
  ],
);

/** Signed-in sessions. Only the SHA-256 of the token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Login attempt counters, keyed 'user:<name>' or 'ip:<address>'. `attempts` counts wrong and
 * in-flight attempts since the last success; `frozenUntil` is set when the limit is reached.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    key: text('key').primaryKey(),
    attempts: integer('attempts').notNull().default(0),
    frozenUntil: timestamp('frozen_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_attempts_updated_idx').on(t.updatedAt)],
);

/**
 * Two-factor sign-in (TOTP) of an account (issue 34 §2). The secret is sealed like the FTP password
 * (`secret-box.ts`, purpose 'totp'); `confirmedAt` null while set-up waits for its first code;
 * `lastStep` is the last time step a code was accepted for, so no code is accepted twice.
 */
export const userTotp = pgTable('user_totp', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes, as SHA-256 of the code (80 random bits each). */
export const totpRecoveryCodes = pgTable(
  'totp_recovery_codes',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ name: 'totp_recovery_codes_pk', columns: [t.userId, t.codeHash] })],
);

/** Sign-ins whose password was right and whose second factor is still due (short-lived, single use). */
export const pendingSignIns = pgTable(
  'pending_sign_ins',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Wrong codes given with it so far. */
    tries: integer('tries').notNull().default(0),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('pending_sign_ins_expires_idx').on(t.expiresAt)],
);

/** Personal API tokens (issue 34 §3): SHA-256 of the token only; revoked = deleted. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique('api_tokens_token_hash_unique'),
    scope: text('scope').$type<'read' | 'all'>().notNull(),
    revokeOnPasswordChange: boolean('revoke_on_password_change').notNull().default(true),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('api_tokens_user_idx').on(t.userId)],
);

/** Issued verification codes; each is deleted when checked (single use). */
export const captchas = pgTable(
  'captchas',
  {
    id: text('id').primaryKey(),
    answerHash: text('answer_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('captchas_expires_idx').on(t.expiresAt)],
);

/** Platform settings: one row, id 1, the whole settings document. */
export const settings = pgTable('settings', {
  id: integer('id').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * FTP storage of database backups (issue 13 §2): one row (id 1). The password is stored encrypted
 * (AES-256-GCM, `modules/ftp/secret-box.ts`), never in clear.
 */
export const ftpSettings = pgTable('ftp_settings', {
  id: integer('id').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  host: text('host').notNull().default(''),
  port: integer('port').notNull().default(21),
  userName: text('user_name').notNull().default(''),
  passwordEncrypted: text('password_encrypted'),
  remoteFolder: text('remote_folder').notNull().default('/gantry'),
  tls: text('tls').$type<'none' | 'explicit' | 'implicit'>().notNull().default('none'),
  allowUntrustedCertificate: boolean('allow_untrusted_certificate').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Single sign-on with OpenID Connect (issue 34 §1): the one row of settings; the secret sealed (SecretBox). */
export const ssoSettings = pgTable('sso_settings', {
  id: integer('id').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  issuer: text('issuer').notNull().default(''),
  clientId: text('client_id').notNull().default(''),
  clientSecretEncrypted: text('client_secret_encrypted'),
  scopes: text('scopes').notNull().default('openid profile email'),
  accountClaim: text('account_claim').$type<'preferred_username' | 'email'>().notNull().default('preferred_username'),
  buttonName: text('button_name').notNull().default(''),
  unknownAccount: text('unknown_account').$type<'refuse' | 'create'>().notNull().default('refuse'),
  tenantType: integer('tenant_type').$type<0 | 1>().notNull().default(0),
  tenantIndustry: text('tenant_industry').$type<Industry>().notNull().default('other'),
  tenantPasswordLogin: boolean('tenant_password_login').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sign-ins under way, each used once: a started one (`state`: the SHA-256 of the state, with the
 * nonce and PKCE verifier) and, after the provider's answer, the console's ticket (`ticket`: the
 * SHA-256 of the ticket and the user). Both bound to the browser by the hash of an HttpOnly cookie.
 */
export const ssoLogins = pgTable(
  'sso_logins',
  {
    idHash: text('id_hash').primaryKey(),
    kind: text('kind').$type<'state' | 'ticket'>().notNull(),
    browserHash: text('browser_hash').notNull(),
    nonce: text('nonce').notNull().default(''),
    codeVerifier: text('code_verifier').notNull().default(''),
    redirectUri: text('redirect_uri').notNull().default(''),
    returnPath: text('return_path').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sso_logins_expires_idx').on(t.expiresAt)],
);

/** Which tenant an identity of a provider signs in as (made when SSO creates the tenant). */
export const ssoAccounts = pgTable(
  'sso_accounts',
  {
    issuer: text('issuer').notNull(),
    account: text('account').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.issuer, t.account], name: 'sso_accounts_pk' }),
    index('sso_accounts_user_idx').on(t.userId),
  ],
);

/**
 * A project's data (design D3): every collection of the spec's data modules, as JSON documents in
 * one table keyed by project first (the distribution column on Citus). `id` is the document's own
 * `id` / `_id`; `doc` never holds the id or the times, which the presenter adds back.
 */
export const projectDocuments = pgTable(
  'project_documents',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    collection: text('collection').notNull(),
    id: text('id').notNull(),
    doc: jsonb('doc').$type<Record<string, unknown>>().notNull(),
    createTime: timestamp('create_time', { withTimezone: true, precision: 3 }).notNull(),
    updateTime: timestamp('update_time', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.collection, t.id] }),
    // The default list order (createTime desc, id) of one collection of one project.
    index('project_documents_created_idx').on(t.projectId, t.collection, t.createTime, t.id),
    // Time-series retention deletes the oldest data records of every project (modules/retention).
    index('project_documents_records_time_idx').on(t.createTime).where(sql`${t.collection} = 'data_record'`),
    // The records of one designer table (modules/tables: `doc.table`), in their default list order.
    index('project_documents_table_records_idx')
      .on(t.projectId, sql`(${t.doc} ->> 'table')`, t.createTime, t.id)
      .where(sql`${t.collection} = 'table_record'`),
  ],
);

/** Documents and bytes per project and collection, kept by statement triggers on project_documents. */
export const projectCollectionStats = pgTable(
  'project_collection_stats',
  {
    projectId: text('project_id').notNull(),
    collection: text('collection').notNull(),
    documents: bigint('documents', { mode: 'number' }).notNull().default(0),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.collection] })],
);

/**
 * Long work (design D5): one row per task, claimed by one server process (`runner`, with a heartbeat)
 * and finished by it. `ongoing` with no runner is waiting to be claimed. See modules/tasks.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    /** Null: a platform task (progress keyed `default`). */
    projectId: text('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    status: text('status').$type<TaskState>().notNull(),
    progress: doublePrecision('progress').notNull().default(0),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    requester: text('requester').notNull(),
    requestId: text('request_id').notNull(),
    /** The outcome in words: the result, or why it failed or stopped. */
    message: text('message'),
    log: text('log').notNull().default(''),
    pauseRequested: boolean('pause_requested').notNull().default(false),
    runner: text('runner'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, precision: 3 }),
    startTime: timestamp('start_time', { withTimezone: true, precision: 3 }).notNull(),
    endTime: timestamp('end_time', { withTimezone: true, precision: 3 }),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index('tasks_status_start_idx').on(t.status, t.startTime),
    index('tasks_project_start_idx').on(t.projectId, t.startTime),
    index('tasks_updated_idx').on(t.updatedAt),
  ],
);

/**
 * Project backup and restore records (issue 12; backups-data-designer.md §3). A record is written
 * only when its work succeeded (a backup's archive complete on disk, a restore applied), so the lists
 * never show a partial one.
 */
export const projectBackups = pgTable(
  'project_backups',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').$type<'export' | 'import'>().notNull(),
    status: text('status').$type<RecordState>().notNull(),
    item: jsonb('item').$type<{ fileServer: boolean; html: boolean; mongodb: boolean }>().notNull(),
    moduleRules: jsonb('module_rules').$type<Record<string, RestoreRule>>().notNull(),
    excludedDirs: jsonb('excluded_dirs').$type<string[]>().notNull(),
    documents: jsonb('documents').$type<Record<string, number>>().notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** Export: the archive's file name under the project's backup folder. */
    file: text('file'),
    /** Import: the backup restored from. */
    restoreFile: text('restore_file'),
    sourceProjectId: text('source_project_id').notNull(),
    /** Taken by the server just before a restore. */
    safety: boolean('safety').notNull().default(false),
    taskId: text('task_id'),
    createTime: timestamp('create_time', { withTimezone: true, precision: 3 }).notNull(),
    updateTime: timestamp('update_time', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('project_backups_list_idx').on(t.projectId, t.type, t.createTime)],
);

/**
 * Documents of a restore being prepared: loaded in batches while other work goes on, then applied to
 * project_documents in one short transaction. Rows of a restore that stopped are removed at start.
 */
export const restoreStaging = pgTable(
  'restore_staging',
  {
    restoreId: text('restore_id').notNull(),
    collection: text('collection').notNull(),
    id: text('id').notNull(),
    doc: jsonb('doc').$type<Record<string, unknown>>().notNull(),
    createTime: timestamp('create_time', { withTimezone: true, precision: 3 }).notNull(),
    updateTime: timestamp('update_time', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.restoreId, t.collection, t.id] })],
);

/**
 * Database backups of a project (issue 13 §1; backups-data-designer.md §3 "Database backup record"):
 * type dump, status success. Like project backups, a record is written only when its archive is
 * complete on disk (under the project's backup folder, `dumps/<id>.zip`).
 */
export const dbBackups = pgTable(
  'db_backups',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').$type<'dump'>().notNull().default('dump'),
    status: text('status').$type<RecordState>().notNull().default('success'),
    item: jsonb('item').$type<{ fileServer: boolean; html: boolean; database: boolean }>().notNull(),
    excludedDirs: jsonb('excluded_dirs').$type<string[]>().notNull(),
    /** Documents per collection the archive holds. */
    documents: jsonb('documents').$type<Record<string, number>>().notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** The archive's file name under the project's dump folder. */
    file: text('file').notNull(),
    sourceProjectId: text('source_project_id').notNull(),
    taskId: text('task_id'),
    /** A backup that succeeded with a problem (its FTP copy failed): message key and params (issue 30). */
    warning: jsonb('warning').$type<{ key: string; params: Record<string, string | number> }>(),
    createTime: timestamp('create_time', { withTimezone: true, precision: 3 }).notNull(),
    updateTime: timestamp('update_time', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('db_backups_list_idx').on(t.projectId, t.createTime)],
);

/**
 * Periodic database backup cycles of a project (issue 13 §3; backups-data-designer.md §3 "Periodic
 * backup cycle": name, definition in hours, enabled). A cycle runs every `hours` from its anchor (its
 * creation, or the last change of its period or enabling); `next_run_at` is the next slot due. Each run
 * is a dump task named after (cycle, slot); its outcome is copied here once the task ends.
 */
export const dbBackupCycles = pgTable(
  'db_backup_cycles',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    hours: integer('hours').notNull(),
    enabled: boolean('enabled').notNull(),
    /** Periodic dumps of this cycle kept (the oldest beyond go after each successful run). */
    keep: integer('keep').notNull(),
    anchorAt: timestamp('anchor_at', { withTimezone: true, precision: 3 }).notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true, precision: 3 }).notNull(),
    /** The latest run: its dump task, when it was started, its outcome once ended. */
    lastTaskId: text('last_task_id'),
    lastRunAt: timestamp('last_run_at', { withTimezone: true, precision: 3 }),
    lastStatus: text('last_status').$type<JobState>(),
    lastMessage: text('last_message'),
    lastEndedAt: timestamp('last_ended_at', { withTimezone: true, precision: 3 }),
    createTime: timestamp('create_time', { withTimezone: true, precision: 3 }).notNull(),
    updateTime: timestamp('update_time', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index('db_backup_cycles_project_idx').on(t.projectId, t.createTime),
    index('db_backup_cycles_due_idx').on(t.nextRunAt).where(sql`${t.enabled}`),
    index('db_backup_cycles_failed_idx').on(t.lastEndedAt).where(sql`${t.lastStatus} = 'failed'`),
  ],
);

/**
 * Sessions of project sites (issue 15): separate from the console's `sessions`, so a console token
 * is never a project token nor the reverse. `kind` 'user': `subject` is a document id of the
 * project's `user` collection; 'owner': `subject` is the console account (the owning tenant or the
 * administrator) managing the project in its back office.
 */
export const siteSessions = pgTable(
  'site_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'user' | 'owner'>().notNull(),
    subject: text('subject').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ip: text('ip'),
  },
  (t) => [
    index('site_sessions_subject_idx').on(t.projectId, t.kind, t.subject),
    index('site_sessions_expires_idx').on(t.expiresAt),
  ],
);

/** Single sign-on hand-off codes (issue 15): hashed, single use (deleted when taken), short-lived. */
export const siteSsoCodes = pgTable(
  'site_sso_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('site_sso_codes_expires_idx').on(t.expiresAt)],
);

/**
 * Solution templates (issue 14; console.md §3 "Template"): a packaged project (a project backup
 * archive under `templates/<file>`) with its gallery card. `source`: 'builtin' (made by code at
 * start, no owner), 'platform' (published by the administrator, owner 'admin'), 'tenant' (published
 * by a tenant for its own use, owner that tenant). A row exists only once its package is complete.
 */
export const templates = pgTable(
  'templates',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    developer: text('developer').notNull(),
    contact: text('contact').notNull().default(''),
    industry: text('industry').notNull(),
    intro: text('intro').notNull().default(''),
    /** A cover image URL; null: the cover drawn from the name and industry (`templates/{id}/cover.svg`). */
    cover: text('cover'),
    description: text('description').notNull().default(''),
    images: jsonb('images').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    appInfo: jsonb('app_info').$type<Record<string, number>>().notNull(),
    planDetail: jsonb('plan_detail').$type<Record<string, unknown>>(),
    /** Documents per collection in the package. */
    modules: jsonb('modules').$type<Record<string, number>>().notNull(),
    source: text('source').$type<'builtin' | 'platform' | 'tenant'>().notNull(),
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    published: boolean('published').notNull().default(true),
    numInstalled: integer('num_installed').notNull().default(0),
    /** The package's file name under `<data>/templates/`. */
    file: text('file').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** Built-in: the hash of the code's description it was built from (rebuilt when it changes). */
    version: text('version'),
    sourceProjectId: text('source_project_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('templates_gallery_idx').on(t.published, t.industry, t.updatedAt),
    index('templates_owner_idx').on(t.ownerId),
    index('templates_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

/**
 * The platform's own identity: one row, made with the database (issue 35). With
 * GANTRY_LICENCE_BINDING=platform the licence's machine code is computed from it, so every node of
 * one platform has the same code, and a platform backup carries it to where the platform moves.
 */
export const platformIdentity = pgTable(
  'platform_identity',
  {
    singleton: boolean('singleton').primaryKey().default(true),
    id: uuid('id').notNull().defaultRandom(),
  },
  (t) => [check('platform_identity_singleton', sql`${t.singleton}`)],
);

import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Console accounts: the platform administrator ('admin') and, later, tenants. */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  isAdmin: boolean('is_admin').notNull().default(false),
  /** argon2id hash of the wire password (itself a SHA-256 hex); null until set. */
  passwordHash: text('password_hash'),
  status: boolean('status').notNull().default(true),
  protectUrl: text('protect_url'),
  tableSettings: jsonb('table_settings').notNull().default(sql`'{}'::jsonb`),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

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

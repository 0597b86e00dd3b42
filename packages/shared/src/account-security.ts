/**
 * Limits of the account's own security (issue 34 §2–3): two-factor sign-in (TOTP, RFC 6238) and
 * API tokens. Both sides read them.
 */

/** TOTP as every authenticator app reads it by default: SHA-1, 6 digits, 30-second steps. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** Steps either side of now accepted, for a phone's clock a little off. */
export const TOTP_WINDOW_STEPS = 1;
/** Secret size: 20 bytes (160 bits), RFC 4226's recommended length for HMAC-SHA-1. */
export const TOTP_SECRET_BYTES = 20;
/** The issuer shown in authenticator apps. */
export const TOTP_ISSUER = 'Gantry';

/** Single-use recovery codes made when two-factor sign-in is turned on. */
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code: 4 groups of 4 base32 characters (80 bits), dashes optional when typed. */
export const RECOVERY_CODE_PATTERN = /^[A-Z2-7]{4}-?[A-Z2-7]{4}-?[A-Z2-7]{4}-?[A-Z2-7]{4}$/;

/** How long the second step of a sign-in may follow the password. */
export const PENDING_SIGN_IN_SECONDS = 300;
/** Wrong codes one pending sign-in takes before the password must be given again. */
export const PENDING_SIGN_IN_TRIES = 5;

/** Every API token starts with this, so a leaked one is recognised (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'gty_';
export const API_TOKEN_NAME_MAX = 64;
/** The longest an API token may live; tokens always expire. */
export const API_TOKEN_MAX_DAYS = 366;
/** Tokens one account may hold at once (a guard, not a business rule). */
export const API_TOKENS_PER_ACCOUNT = 50;
export const API_TOKEN_SCOPES = ['read', 'all'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

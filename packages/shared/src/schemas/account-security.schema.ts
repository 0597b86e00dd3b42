import { z } from 'zod';
import {
  API_TOKEN_MAX_DAYS,
  API_TOKEN_NAME_MAX,
  API_TOKEN_SCOPES,
  RECOVERY_CODE_PATTERN,
  TOTP_DIGITS,
} from '../account-security.js';
import { loginResponse, wirePassword } from './auth.schema.js';

const totpCode = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${TOTP_DIGITS}}$`), { error: 'totp.codeFormat' });
/** A code from the app or a recovery code (told apart by their shape). */
const codeOrRecovery = z
  .string()
  .trim()
  .toUpperCase()
  .refine((value) => new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(value) || RECOVERY_CODE_PATTERN.test(value), {
    error: 'totp.codeFormat',
  });
const pendingToken = z.string().min(1).max(128);

/** The second step of a sign-in: what `POST login` answers instead of a session when a code is due. */
export const pendingSignIn = z.object({
  /** 'code': type the app's code (or a recovery code); 'setup': this account must first turn it on. */
  twoFactor: z.enum(['code', 'setup']),
  pendingToken: z.string(),
  expiresAt: z.string(),
});
export type PendingSignIn = z.infer<typeof pendingSignIn>;

/** What `POST login` answers: a session, or the second step still due. */
export const loginAnswer = z.union([loginResponse, pendingSignIn]);
export type LoginAnswer = z.infer<typeof loginAnswer>;

export const signInCodeBody = z.object({ pendingToken, code: codeOrRecovery });
export const signInSetupBody = z.object({ pendingToken });
export const signInSetupConfirmBody = z.object({ pendingToken, code: totpCode });

/** A new secret, shown once: as text and as the otpauth:// URI the QR code carries. */
export const totpSetupResponse = z.object({ secret: z.string(), uri: z.string() });
export type TotpSetupResponse = z.infer<typeof totpSetupResponse>;
/** A required account's set-up during sign-in, confirmed: the session and the recovery codes. */
export const signInSetupConfirmed = loginResponse.extend({ recoveryCodes: z.array(z.string()) });
export const totpConfirmBody = z.object({ code: totpCode });
export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;
/** Turning it off: the password, or a current code. */
export const totpOffBody = z
  .object({ password: wirePassword.optional(), code: totpCode.optional() })
  .refine((body) => body.password !== undefined || body.code !== undefined, {
    error: 'totp.offNeedsProof',
    path: ['password'],
  });
export const totpStatus = z.object({
  enabled: z.boolean(),
  /** Settings require it for this account. */
  required: z.boolean(),
  recoveryCodesLeft: z.number(),
});
export type TotpStatus = z.infer<typeof totpStatus>;

export const apiTokenScope = z.enum(API_TOKEN_SCOPES);
export const createApiTokenBody = z.object({
  name: z.string().trim().min(1, { error: 'apiToken.nameRequired' }).max(API_TOKEN_NAME_MAX),
  scope: apiTokenScope,
  expiresInDays: z.number().int().min(1).max(API_TOKEN_MAX_DAYS, { error: 'apiToken.tooLong' }),
  /** End the token when the account's password changes. */
  revokeOnPasswordChange: z.boolean().default(true),
});
export type CreateApiTokenBody = z.input<typeof createApiTokenBody>;
/** A token as listed: never the token itself. */
export const apiTokenView = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  scope: apiTokenScope,
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokeOnPasswordChange: z.boolean(),
});
export type ApiTokenView = z.infer<typeof apiTokenView>;
export const apiTokenList = z.object({ items: z.array(apiTokenView) });
/** The answer to its creation, the only one that ever holds the token. */
export const apiTokenCreated = apiTokenView.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof apiTokenCreated>;

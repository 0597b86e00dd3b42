import { z } from 'zod';
import { grantView } from '../licence.js';
import { WIRE_PASSWORD_PATTERN } from '../validations.js';

/** A password as sent: lowercase hex SHA-256 (spec README, contract 2). */
export const wirePassword = z
  .string({ error: 'password.required' })
  .min(1, { error: 'password.required' })
  .regex(WIRE_PASSWORD_PATTERN, { error: 'auth.passwordNotHashed' });

export const registerBody = z.object({ password: wirePassword });

export const loginBody = z.object({
  username: z.string().trim().min(1).max(64),
  password: wirePassword,
  /** The verification code typed by the user, and the id of the image it answers. */
  code: z.string().max(16).optional(),
  codeId: z.string().max(64).optional(),
  /** Remember-me, spelled as the spec spells it. */
  remenber: z.boolean().optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

export const changePasswordBody = z
  .object({ oldPassword: wirePassword, newPassword: wirePassword, newPassword2: wirePassword })
  .refine((b) => b.newPassword === b.newPassword2, { error: 'password.mismatch', path: ['newPassword2'] });

/** The signed-in user, as returned by login (with token) and login/current/user. */
export const sessionUser = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  isAdmin: z.boolean(),
  userId: z.string(),
  protectUrl: z.string().nullable(),
  expiresAt: z.string(),
});
export type SessionUser = z.infer<typeof sessionUser>;
/**
 * GET login/current/user: the session user with the grant it holds (the platform licence's for the
 * administrator, its own for a tenant), the features usable now (legacy BI expanded; a tenant's cut to
 * what the platform licence still has) and its rights.
 */
export const currentUser = sessionUser.extend({
  grant: grantView.nullable(),
  features: z.array(z.string()),
  rights: z.array(z.string()),
  /**
   * An evaluation install (no vendor licence key configured): licences signed with the public
   * development key are accepted. The console says so in a banner.
   */
  evaluation: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUser>;
export const loginResponse = sessionUser.extend({ token: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

/** GET login/captcha?username=: whether a code is needed now and, if so, its image. */
export const captchaResponse = z.object({
  required: z.boolean(),
  id: z.string().optional(),
  svg: z.string().optional(),
});
export type CaptchaResponse = z.infer<typeof captchaResponse>;

export const adminCheckResponse = z.object({ exists: z.boolean() });
export const messageResponse = z.object({ message: z.string() });

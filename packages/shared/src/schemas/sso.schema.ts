import { z } from 'zod';
import { INDUSTRIES } from '../validations.js';

/** Single sign-on with OpenID Connect (issue 34 §1): the administrator's settings and the login page's part. */
export const SSO_ACCOUNT_CLAIMS = ['preferred_username', 'email'] as const;
export type SsoAccountClaim = (typeof SSO_ACCOUNT_CLAIMS)[number];
/** What an identity the platform does not know gets: refused, or a tenant of its own. */
export const SSO_UNKNOWN_ACCOUNT = ['refuse', 'create'] as const;

export const SSO_LIMITS = {
  issuerMax: 512,
  clientIdMax: 256,
  clientSecretMax: 512,
  scopesMax: 256,
  buttonNameMax: 32,
  /** How long a started sign-in (state, nonce, verifier) waits for the provider's answer. */
  loginTtlSeconds: 600,
  /** How long the console has to collect the session after the provider's answer. */
  ticketTtlSeconds: 60,
} as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/** An issuer: https, or http on a loopback host (a provider on the same machine, tests). */
export function issuerAllowed(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** Scopes: space-separated tokens, `openid` among them. */
const scopes = z
  .string()
  .trim()
  .max(SSO_LIMITS.scopesMax, { error: 'sso.scopes' })
  .regex(/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/, { error: 'sso.scopes' })
  .refine((value) => value.split(' ').includes('openid'), { error: 'sso.scopes' });

const settingsFields = {
  enabled: z.boolean(),
  issuer: z
    .string()
    .trim()
    .max(SSO_LIMITS.issuerMax, { error: 'sso.issuer' })
    .refine((value) => value === '' || issuerAllowed(value), { error: 'sso.issuer' }),
  clientId: z.string().trim().max(SSO_LIMITS.clientIdMax, { error: 'sso.clientId' }).regex(NO_CONTROL),
  scopes: scopes.default('openid profile email'),
  accountClaim: z.enum(SSO_ACCOUNT_CLAIMS).default('preferred_username'),
  buttonName: z.string().trim().max(SSO_LIMITS.buttonNameMax, { error: 'sso.buttonName' }).regex(NO_CONTROL),
  unknownAccount: z.enum(SSO_UNKNOWN_ACCOUNT).default('refuse'),
  /** Type and industry of a tenant created for an unknown account (its grant: none). */
  tenantType: z.union([z.literal(0), z.literal(1)]).default(0),
  tenantIndustry: z.enum(INDUSTRIES).default('other'),
  /** Whether tenants may still sign in with a password (the administrator always may). */
  tenantPasswordLogin: z.boolean().default(true),
};

/** PUT sso/settings. A missing `clientSecret` keeps the stored one (it is never sent back). */
export const ssoSettingsInput = z
  .object({
    ...settingsFields,
    clientSecret: z
      .string()
      .max(SSO_LIMITS.clientSecretMax, { error: 'sso.clientSecret' })
      .regex(NO_CONTROL)
      .optional(),
  })
  .superRefine((value, context) => {
    if (!value.enabled) return;
    if (!value.issuer) context.addIssue({ code: 'custom', path: ['issuer'], message: 'sso.issuer' });
    if (!value.clientId) context.addIssue({ code: 'custom', path: ['clientId'], message: 'sso.clientId' });
    if (!value.buttonName) context.addIssue({ code: 'custom', path: ['buttonName'], message: 'sso.buttonName' });
  });
export type SsoSettingsInput = z.infer<typeof ssoSettingsInput>;

/** GET sso/settings: the settings without the secret, and where the provider must send users back. */
export const ssoSettings = z.object({
  ...settingsFields,
  clientSecretSet: z.boolean(),
  redirectUri: z.string(),
});
export type SsoSettings = z.infer<typeof ssoSettings>;

/** GET login/sso (public): what the login page shows. */
export const ssoLoginOptions = z.object({
  enabled: z.boolean(),
  buttonName: z.string(),
  tenantPasswordLogin: z.boolean(),
});
export type SsoLoginOptions = z.infer<typeof ssoLoginOptions>;

/**
 * Where the console goes after a sign-in: one of its own hash routes under `/app`, nothing else
 * (no scheme, no host, no `//`, no `..`, no backslash); anything else is the home page.
 */
export const SSO_RETURN_PATTERN = /^\/app(?:\/[A-Za-z0-9_.~-]+)*\/?(?:\?[A-Za-z0-9_.~%=&-]*)?$/;
export function safeReturnPath(value: string | undefined, fallback: string): string {
  if (!value || value.length > 256 || !SSO_RETURN_PATTERN.test(value) || value.includes('..')) return fallback;
  return value;
}

export const ssoStartQuery = z.object({ return: z.string().max(256).optional() });
export const ssoCallbackQuery = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(256).optional(),
  error: z.string().max(256).optional(),
  iss: z.string().max(SSO_LIMITS.issuerMax).optional(),
});
/** POST login/sso/ticket: the one-time ticket the callback handed to the console. */
export const ssoTicketBody = z.object({ ticket: z.string().min(1).max(128) });

import { z } from 'zod';
import { FTP_LIMITS } from '../validations.js';

/** FTP storage of database backups (issue 13 §2): the administrator's FTP settings. */
export const FTP_TLS_MODES = ['none', 'explicit', 'implicit'] as const;
export type FtpTlsMode = (typeof FTP_TLS_MODES)[number];

/** What a failed FTP operation or connection test names (the storage's `FtpFailure`). */
export const FTP_FAILURES = [
  'dns',
  'refused',
  'timeout',
  'tls',
  'login',
  'permission',
  'notFound',
  'diskFull',
  'interrupted',
  'sizeMismatch',
  'notConfigured',
  'other',
] as const;
export type FtpFailureKind = (typeof FTP_FAILURES)[number];

/** No control characters (CR/LF would end an FTP command early; NUL cannot be stored). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/** A host name (letters, digits, dots, hyphens) or an IPv4 / IPv6 address. */
const HOST_PATTERN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$|^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$/;

/** An absolute folder on the server, without `..`, backslashes or control characters. */
const remoteFolder = z
  .string()
  .trim()
  .max(FTP_LIMITS.folderMax, { error: 'ftp.remoteFolder' })
  .regex(NO_CONTROL, { error: 'ftp.remoteFolder' })
  .refine((folder) => folder.startsWith('/') && !folder.includes('\\') && !folder.split('/').includes('..'), {
    error: 'ftp.remoteFolder',
  })
  .default(FTP_LIMITS.defaultFolder);

const settingsFields = {
  enabled: z.boolean(),
  host: z
    .string()
    .trim()
    .max(FTP_LIMITS.hostMax, { error: 'ftp.host' })
    .refine((host) => host === '' || HOST_PATTERN.test(host), { error: 'ftp.host' }),
  port: z
    .number({ error: 'ftp.port' })
    .int({ error: 'ftp.port' })
    .min(1, { error: 'ftp.port' })
    .max(65535, { error: 'ftp.port' })
    .default(FTP_LIMITS.defaultPort),
  user: z.string().trim().max(FTP_LIMITS.userMax, { error: 'ftp.user' }).regex(NO_CONTROL, { error: 'ftp.user' }),
  remoteFolder,
  tls: z.enum(FTP_TLS_MODES, { error: 'ftp.tls' }).default('none'),
  allowUntrustedCertificate: z.boolean().default(false),
};

/**
 * The settings as saved (PUT) or tried (test): a missing password keeps (or tries) the stored one.
 * `passive` may be sent but only as true: transfers are always passive (basic-ftp has no active mode).
 */
export const ftpSettingsInputSchema = z
  .object({
    ...settingsFields,
    password: z
      .string()
      .min(1, { error: 'ftp.passwordRequired' })
      .max(FTP_LIMITS.passwordMax, { error: 'ftp.password' })
      .regex(NO_CONTROL, { error: 'ftp.password' })
      .optional(),
    passive: z.literal(true, { error: 'ftp.passiveOnly' }).optional(),
  })
  .superRefine((value, context) => {
    if (!value.enabled) return;
    if (value.host === '') context.addIssue({ code: 'custom', path: ['host'], message: 'ftp.hostRequired' });
    if (value.user === '') context.addIssue({ code: 'custom', path: ['user'], message: 'ftp.userRequired' });
  });
export type FtpSettingsInput = z.infer<typeof ftpSettingsInputSchema>;

/** The settings as answered: never the password, only whether one is stored. */
export const ftpSettingsSchema = z.object({
  enabled: z.boolean(),
  host: z.string(),
  port: z.number().int(),
  user: z.string(),
  passwordSet: z.boolean(),
  remoteFolder: z.string(),
  tls: z.enum(FTP_TLS_MODES),
  /** Always true: transfers use passive mode (EPSV, then PASV). */
  passive: z.literal(true),
  allowUntrustedCertificate: z.boolean(),
});
export type FtpSettings = z.infer<typeof ftpSettingsSchema>;

/** 'Test connection': which step failed, in a sentence in the caller's language naming it. */
export const ftpTestResultSchema = z.object({
  ok: z.boolean(),
  failure: z.enum(FTP_FAILURES).optional(),
  message: z.string(),
});
export type FtpTestResult = z.infer<typeof ftpTestResultSchema>;

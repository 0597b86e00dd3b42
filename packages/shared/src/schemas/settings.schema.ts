import { z } from 'zod';
import { FREEZE_UNITS, LOGIN_DURATION_UNITS, normalizeLoginDuration, RETENTION_UNITS, toSeconds } from '../duration.js';
import { projectExpandSchema } from '../project-expand.js';
import {
  COPYRIGHT_MAX,
  DEFAULT_HELP_URL,
  IMAGE_URL_MAX,
  LANGUAGES,
  PORT_MAX,
  PORT_MIN,
  SYSTEM_NAME_MAX,
} from '../validations.js';

/** Upper bound of every count in settings (a guard against nonsense, not a business rule). */
const COUNT_MAX = 1_000_000;
const wholeNumber = (min: number) =>
  z
    .number({ error: min === 0 ? 'settings.countMin0' : 'settings.countMin1' })
    .int({ error: min === 0 ? 'settings.countMin0' : 'settings.countMin1' })
    .min(min, { error: min === 0 ? 'settings.countMin0' : 'settings.countMin1' })
    .max(COUNT_MAX, { error: 'settings.countMax' });

/** An uploaded image address ('' for none): our own upload path or an absolute http(s) URL. */
const imageUrl = z
  .string()
  .max(IMAGE_URL_MAX, { error: 'settings.imageUrl' })
  .regex(/^$|^\/portal\/rest\/spm\/resource\/img\/[A-Za-z0-9._-]+$|^https?:\/\/[^\s"'<>]+$/, {
    error: 'settings.imageUrl',
  });

/**
 * Where Help opens: a path on this server (not `//host`, which leaves it) or an absolute http(s) URL.
 * Missing (settings saved before it existed, or a PUT without it) it is the shipped guide.
 */
const helpUrl = z
  .string()
  .trim()
  .max(IMAGE_URL_MAX, { error: 'settings.helpUrl' })
  .regex(/^\/(?![/\\])[^\s"'<>]*$|^https?:\/\/[^\s"'<>]+$/, { error: 'settings.helpUrl' })
  .default(DEFAULT_HELP_URL);

export const PUBLIC_DIR_FEATURES = ['mkDir', 'upload', 'modify', 'delete'] as const;
export const CAPTCHA_MODES = ['off', 'afterFailure', 'always'] as const;
export type CaptchaMode = (typeof CAPTCHA_MODES)[number];

/** Freeze after wrong passwords; count 0 or null = no limit. `interval` is derived, in seconds. */
const errorLogin = z.object({
  count: wholeNumber(0).nullable(),
  duration: z.object({
    count: wholeNumber(1),
    unit: z.enum(FREEZE_UNITS),
    interval: z.number().optional(),
  }),
});

/** How long a session lives; `time` is derived, in seconds. */
const loginDuration = z.object({
  count: wholeNumber(1),
  unit: z.enum(LOGIN_DURATION_UNITS),
  time: z.number().optional(),
});

/** Time-series retention; `time` is derived, in seconds (year 365 days, month 30, week 7). */
const retentionPolicy = z.object({
  count: wholeNumber(1),
  unit: z.enum(RETENTION_UNITS),
  time: z.number().optional(),
});

/**
 * Audit-log retention (issue 34 §5): entries older than this are deleted by the same hourly task as
 * the time series; null keeps them all (the default, so an upgrade deletes nothing).
 */
const auditRetention = z
  .object({ count: wholeNumber(1), unit: z.enum(RETENTION_UNITS), time: z.number().optional() })
  .nullable()
  .default(null);

/** Public media-library folder; the permissions are cleared when it is off. */
const mediaLibrary = z.object({
  publicDirEnable: z.boolean(),
  publicDirFeature: z.array(z.enum(PUBLIC_DIR_FEATURES)).max(PUBLIC_DIR_FEATURES.length),
});

const port = z
  .number({ error: 'project.portRange' })
  .int({ error: 'project.portRange' })
  .min(PORT_MIN, { error: 'project.portRange' })
  .max(PORT_MAX, { error: 'project.portRange' });

/** The project ports the administrator allows, by default all of PORT_MIN–PORT_MAX. */
export const DEFAULT_SITE_PORTS = { min: PORT_MIN, max: PORT_MAX };

/**
 * The ports a project site may be given (issue 32 §3), within PORT_MIN–PORT_MAX, lowest first. A
 * save of a project with a new port outside is refused before the port is tried, so a tenant learns
 * nothing of the ports outside (which other programs hold). Missing: the whole of PORT_MIN–PORT_MAX.
 */
const sitePorts = z
  .object({ min: port, max: port })
  .refine((range) => range.min <= range.max, { error: 'settings.sitePortOrder', path: ['max'] })
  .default(DEFAULT_SITE_PORTS);

/**
 * Who must sign in with a second factor (issue 34 §2). An account it covers that has none is led
 * to set it up after its password. Missing (settings saved before it existed): nobody.
 */
export const DEFAULT_TWO_FACTOR = { admin: false, tenants: false };
const twoFactor = z.object({ admin: z.boolean(), tenants: z.boolean() }).default(DEFAULT_TWO_FACTOR);

export const settingsSchema = z.object({
  name: z
    .string({ error: 'settings.nameRequired' })
    .trim()
    .min(1, { error: 'settings.nameRequired' })
    .max(SYSTEM_NAME_MAX, { error: 'settings.nameTooLong' }),
  copyright: z.string().trim().max(COPYRIGHT_MAX),
  language: z.enum(LANGUAGES),
  logo: imageUrl,
  backgroundImage: imageUrl,
  project_logo: imageUrl,
  project_backgroundImage: imageUrl,
  errorLogin,
  loginDuration,
  captcha: z.enum(CAPTCHA_MODES),
  mediaLibrary,
  enableCors: z.boolean(),
  retentionPolicy,
  auditRetention,
  helpUrl,
  sitePorts,
  twoFactor,
  /** Extra project fields (settings/project, project-expand.ts): their schema, editable and batch-changeable ones. */
  projectExpand: projectExpandSchema,
});
export type Settings = z.infer<typeof settingsSchema>;
/** PATCH body: a subset of the top-level fields, each given whole. */
export const settingsPatchSchema = settingsSchema.partial();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = normalizeSettings({
  name: 'Gantry',
  copyright: '',
  language: 'zh_Hans',
  logo: '',
  backgroundImage: '',
  project_logo: '',
  project_backgroundImage: '',
  errorLogin: { count: null, duration: { count: 1, unit: 'm' } },
  loginDuration: { count: 1, unit: 'd' },
  captcha: 'afterFailure',
  mediaLibrary: { publicDirEnable: false, publicDirFeature: [] },
  enableCors: false,
  retentionPolicy: { count: 1, unit: 'Y' },
  auditRetention: null,
  helpUrl: DEFAULT_HELP_URL,
  sitePorts: DEFAULT_SITE_PORTS,
  twoFactor: DEFAULT_TWO_FACTOR,
  projectExpand: projectExpandSchema.parse({}),
});

/**
 * The derived parts of settings, computed the same way on both sides: durations in seconds,
 * the 10-minute floor of the login duration, 0 freeze count as "no limit" (null), and the
 * public-folder permissions cleared when the folder is off.
 */
export function normalizeSettings(s: Settings): Settings {
  const loginCount = normalizeLoginDuration(s.loginDuration.count, s.loginDuration.unit);
  return {
    ...s,
    errorLogin: {
      count: s.errorLogin.count ? s.errorLogin.count : null,
      duration: {
        ...s.errorLogin.duration,
        interval: toSeconds(s.errorLogin.duration.count, s.errorLogin.duration.unit),
      },
    },
    loginDuration: { ...s.loginDuration, count: loginCount, time: toSeconds(loginCount, s.loginDuration.unit) },
    retentionPolicy: { ...s.retentionPolicy, time: toSeconds(s.retentionPolicy.count, s.retentionPolicy.unit) },
    auditRetention: s.auditRetention && {
      ...s.auditRetention,
      time: toSeconds(s.auditRetention.count, s.auditRetention.unit),
    },
    mediaLibrary: s.mediaLibrary.publicDirEnable
      ? { publicDirEnable: true, publicDirFeature: [...new Set(s.mediaLibrary.publicDirFeature)] }
      : { publicDirEnable: false, publicDirFeature: [] },
  };
}

/** What anyone may read before signing in (the login page needs these). */
export const PUBLIC_SETTING_KEYS = [
  'name',
  'copyright',
  'language',
  'logo',
  'backgroundImage',
  'project_logo',
  'project_backgroundImage',
  'helpUrl',
] as const;
export type PublicSettings = Pick<Settings, (typeof PUBLIC_SETTING_KEYS)[number]>;

export const imageUploadResponse = z.object({ url: z.string() });

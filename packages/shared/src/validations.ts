/** Limits and constants shared by the console and the server (console.md §5, §9). */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 30;
export const LOGIN_PASSWORD_MAX = 30;
export const LOGIN_DURATION_MIN_MINUTES = 10;
export const SYSTEM_NAME_MAX = 64;
export const COPYRIGHT_MAX = 256;
export const IMAGE_URL_MAX = 1024;
/**
 * Where the console's Help opens by default: the user guide the server ships (docs/guide/, served at
 * /guide/ in the user's language). Settings may point it elsewhere (settings.helpUrl).
 */
export const DEFAULT_HELP_URL = '/guide/';
export const IMAGE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const PORT_MIN = 5001;
export const PORT_MAX = 65535;
export const DOMAIN_MAX = 255;
export const LICENCE_COUNT_MAX = 9_999_999;
export const LICENCE_TABLE_COUNT_MAX = 99_999_999;
/** The project card grid's page (console.md §9) and the list view's. */
export const PROJECT_CARD_PAGE = 15;
export const PROJECT_LIST_PAGE = 24;
/**
 * Industry values of tenants, projects and templates (console.md §3). Constants the console's list
 * pages need live here, in no module with zod schemas: a page that imports one does not load zod.
 */
export const INDUSTRIES = ['fishery', 'smartCity', 'coal', 'pharmaceutical', 'oilfield', 'heating', 'other'] as const;
export type Industry = (typeof INDUSTRIES)[number];
export const LICENCE_WARNING_DAYS = 14;
/**
 * Days before the end at which administrators are reminded (console.md §8, §9): the licence warning.
 * Here rather than beside the licence schemas, so that the console's layout loads no zod for it.
 */
export const LICENCE_REMINDER_DAYS = LICENCE_WARNING_DAYS;
export const COUNT_DISPLAY_MAX = 999;

export const TOAST_ERROR_SECONDS = 13;
export const TOAST_SUCCESS_SECONDS = 1.5;
export const TOAST_POPUP_SECONDS = 3;
export const SIDEBAR_COLLAPSED_WIDTH = 80;
export const MIN_LAYOUT_WIDTH = 1200;
export const MOBILE_BREAKPOINT = 768;
export const WINDOW_OPEN_DELAY_MS = 200;

/** Session token entropy: 32 random bytes (256 bits), sent as base64url. */
export const TOKEN_BYTES = 32;
/** Lifetime of an issued verification-code image. */
export const CAPTCHA_TTL_SECONDS = 300;
/**
 * The 'afterFailure' verification-code policy (README, "Sign-in protection"): an account name is
 * asked for a code after this many wrong passwords within CAPTCHA_FAILURE_WINDOW_SECONDS…
 */
export const CAPTCHA_ACCOUNT_FAILURES = 1;
/** …and every sign-in from a client address after this many wrong passwords from it (any names). */
export const CAPTCHA_ADDRESS_FAILURES = 10;
/** How long failures count towards the code: an hour after the last one, they are forgotten. */
export const CAPTCHA_FAILURE_WINDOW_SECONDS = 3600;

export const LANGUAGES = ['zh_Hans', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh_Hans';

/** The platform administrator's user id. */
export const ADMIN_USER_ID = 'admin';

/** A password as it travels: lowercase hex SHA-256 of the UTF-8 password (spec README, contract 2). */
export const WIRE_PASSWORD_PATTERN = /^[0-9a-f]{64}$/;

/** FTP storage settings (issue 13 §2): field limits and defaults. */
export const FTP_LIMITS = {
  hostMax: 253,
  userMax: 128,
  passwordMax: 256,
  folderMax: 1024,
  defaultPort: 21,
  defaultFolder: '/gantry',
} as const;

/**
 * Periodic database backup cycles (issue 13 §3; backups-data-designer.md §3 "Periodic backup cycle":
 * name, definition in hours, enabled). `keep`: the periodic dumps of a cycle kept (the last K).
 */
export const PERIODIC_BACKUP_LIMITS = {
  nameMax: 30,
  hoursMin: 1,
  /** A year. */
  hoursMax: 8760,
  keepMin: 1,
  keepMax: 100,
  keepDefault: 7,
  /** Cycles per project. */
  cyclesMax: 20,
} as const;

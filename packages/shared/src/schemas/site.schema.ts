import { z } from 'zod';
import { loginBody, wirePassword } from './auth.schema.js';
import { mediaNameParam, mediaPathParam } from './media.schema.js';
import { CAPTCHA_MODES } from './settings.schema.js';

/**
 * The project sites (issue 15): the front site `/_p_{id}/…`, the back office's page `/admin/_p_{id}/…`,
 * its calls `/admin/_p_{id}/api/…` and the console's single sign-on `project/{id}/sso`. What they take
 * and what they answer; a record answer is the table designer's (`recordView`).
 */

/** A site page's project (any text: a project that does not exist answers a page saying so), and the path in it. */
export const sitePageParams = z.object({ id: z.string(), '*': z.string().optional() });
/** A back-office call's project. */
export const siteParams = z.object({ id: z.string().min(1).max(64) });
/** A project user or role of the back office. */
export const siteItemParams = siteParams.extend({ item: z.string().min(1).max(64) });
/** A table of the back office, and one of its records. */
export const siteTableParams = siteParams.extend({ table: z.string().min(1).max(128) });
export const siteRecordParams = siteTableParams.extend({ record: z.string().min(1).max(128) });

/** A page of the sites (HTML), their style sheet and script, or a file of the project's html package. */
export const siteContent = z.string();

/** `GET …/api/captcha`: whether the account must answer a verification code. */
export const siteCaptchaQuery = z.object({
  username: z.string().max(64).default(''),
  owner: z.enum(['true', 'false']).optional(),
});
/** `POST …/api/login`: a project user, or (`owner`) the console account of the project administrator. */
export const siteLoginBody = loginBody.omit({ remenber: true }).extend({ owner: z.boolean().optional() });
/** `POST …/api/sso`: the one-time code the console issued. */
export const siteSsoBody = z.object({ code: z.string().min(1).max(128) });

const roleIds = z.array(z.string().min(1).max(64)).max(100);
const userName = z.string().trim().max(100).optional();
/** `POST …/api/users`: a new project user. */
export const siteUserBody = z.object({
  username: z.string().trim().min(1).max(64),
  name: userName,
  password: wirePassword,
  status: z.boolean().optional(),
  roles: roleIds.optional(),
});
/** `PATCH …/api/users/{item}`. */
export const siteUserUpdateBody = z.object({
  name: userName,
  password: wirePassword.optional(),
  status: z.boolean().optional(),
  roles: roleIds.optional(),
});
/** `POST …/api/roles`; `PATCH` takes any of it. */
export const siteRoleBody = z.object({
  name: z.string().trim().min(1).max(100),
  remarks: z.string().max(500).optional(),
});

/** The back office's media library: the folder (default the root), a path, a rename, an upload. */
export const siteMediaTreeQuery = z.object({ path: mediaPathParam.optional() });
export const siteMediaPathBody = z.object({ path: mediaPathParam });
export const siteMediaPathQuery = z.object({ path: mediaPathParam });
export const siteMediaRenameBody = z.object({ path: mediaPathParam, name: mediaNameParam });
export const siteMediaUploadQuery = z.object({
  path: mediaPathParam.optional(),
  overwrite: z.enum(['true', 'false']).optional(),
});

/** `GET …/api/state`: the project as its sign-in page shows it, and the verification code policy. */
export const siteStateView = z.object({
  project: z.object({ id: z.string(), name: z.string() }),
  captcha: z.enum(CAPTCHA_MODES),
});
/** A back-office session (`login`, `sso`). */
export const siteSessionView = z.object({ token: z.string(), expiresAt: z.string() });
/** A call that answers only that it was done. */
export const siteDoneView = z.object({ ok: z.literal(true) });

/** `GET …/api/me`: the signed-in caller, and its project with the grant. */
export const siteMeView = z.object({
  kind: z.enum(['user', 'owner']),
  username: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  manager: z.boolean(),
  project: z.object({
    id: z.string(),
    name: z.string(),
    /**
     * The project's grant, every key as stored, followed by `endTime` (its first day past the end,
     * YYYY-MM-DD) and `remainingTime` (days); null without one.
     */
    grant: z.looseObject({}).nullable(),
  }),
});

/** A project user, as the project administrator sees them. */
export const siteUserView = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  status: z.boolean(),
  roles: z.array(z.string()),
  createTime: z.string(),
  updateTime: z.string(),
});
/** A project role. */
export const siteRoleView = z.object({
  id: z.string(),
  name: z.string(),
  remarks: z.string(),
  createTime: z.string(),
});

/** A published table as the back office shows it: its fields and list settings, as stored (not its permissions or rules). */
export const siteTableView = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  fields: z.array(z.record(z.string(), z.unknown())),
  list: z.record(z.string(), z.unknown()).nullable(),
});
/** A removed record. */
export const siteRecordRemovedView = z.object({ id: z.string() });

/** `POST project/{id}/sso` (the console): a one-time code for the project's back office, and when it ends. */
export const siteSsoCodeView = z.object({ code: z.string(), expiresAt: z.string() });

import { z } from 'zod';
import { grantSchema, grantView } from '../licence.js';
import { DOMAIN_MAX, PORT_MAX, PORT_MIN } from '../validations.js';
import { industrySchema, REMARKS_MAX } from './tenant.schema.js';

export const PROJECT_ID_MAX = 32;
export const PROJECT_NAME_MAX = 64;
export const PUBLIC_DIR_PERMISSIONS = ['mkDir', 'upload', 'modify', 'delete'] as const;
export const PROJECT_TYPES = ['blank', 'template'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];

/** Ids that are calls of their own (`GET project/count`, `GET project/available`): taken. */
export const RESERVED_PROJECT_IDS: readonly string[] = ['count', 'available'];

/** Project id rules in the order the form reports them (console.md §5). */
export const projectIdSchema = z
  .string()
  .max(PROJECT_ID_MAX, { error: 'project.idTooLong' })
  .refine((id) => !/^\d+$/.test(id), { error: 'project.idDigits', abort: true })
  .refine((id) => !/[A-Z]/.test(id), { error: 'project.idUppercase', abort: true })
  .refine((id) => /^[a-z]/.test(id), { error: 'project.idStart', abort: true })
  .refine((id) => id !== 'default', { error: 'project.idDefault', abort: true })
  .refine((id) => /^[a-z0-9]+$/.test(id), { error: 'project.idChars', abort: true })
  .refine((id) => !RESERVED_PROJECT_IDS.includes(id), { error: 'project.idTaken' });

const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?';
/** Optional http(s) scheme, dotted labels, a 2+ letter top level, optional port and path. */
export const DOMAIN_PATTERN = new RegExp(
  `^(?:https?://)?(?:${LABEL}\\.)+[a-zA-Z]{2,}(?::\\d{1,5})?(?:/[a-zA-Z0-9._~/-]*)?$`,
);

export function isValidDomain(domain: string): boolean {
  return domain.length <= DOMAIN_MAX && DOMAIN_PATTERN.test(domain) && !domain.includes('--');
}
/** The part of a domain two projects may not share: no scheme, lowercase, no trailing slash. */
export function domainKey(domain: string): string {
  return domain
    .replace(/^https?:\/\//i, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}

/** Certificate file names: Chinese characters, letters, digits, dot and underscore. */
export const CERT_FILE_NAME = /^[\p{Script=Han}A-Za-z0-9._]+$/u;
export function certificateFilesProblem(names: readonly string[]): boolean {
  const keys = names.filter((n) => n.toLowerCase().endsWith('.key'));
  const pems = names.filter((n) => n.toLowerCase().endsWith('.pem'));
  return names.length !== 2 || keys.length !== 1 || pems.length !== 1 || !names.every((n) => CERT_FILE_NAME.test(n));
}

export const advancedSchema = z.object({
  mediaLibraryPublicDirEnable: z.boolean().default(false),
  mediaLibraryPublicDirFeature: z.array(z.enum(PUBLIC_DIR_PERMISSIONS)).max(4).default([]),
});
export type ProjectAdvanced = z.infer<typeof advancedSchema>;

const projectFields = {
  name: z.string().trim().min(1, { error: 'project.nameRequired' }).max(PROJECT_NAME_MAX),
  industry: industrySchema,
  grant: grantSchema,
  projectType: z.enum(PROJECT_TYPES),
  /** Template id, required for a template project. */
  type: z.string().max(128).nullish(),
  /** Owning tenant id; only the administrator chooses it ('admin' for platform projects). */
  user: z.string().max(64).optional(),
  hasSSO: z.boolean().default(false),
  remarks: z.string().max(REMARKS_MAX).nullish(),
  bgColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{3,8}$/)
    .nullish(),
  domain: z
    .string()
    .trim()
    .refine((d) => d === '' || isValidDomain(d), { error: 'project.domainFormat' })
    .nullish(),
  isUseDomain: z.boolean().default(false),
  isUseHttps: z.boolean().default(false),
  port: z
    .number({ error: 'project.portRange' })
    .int({ error: 'project.portRange' })
    .min(PORT_MIN, { error: 'project.portRange' })
    .max(PORT_MAX, { error: 'project.portRange' })
    .nullish(),
  advanced: advancedSchema.default({ mediaLibraryPublicDirEnable: false, mediaLibraryPublicDirFeature: [] }),
  planId: z.string().max(128).nullish(),
  logo: z.string().max(1024).nullish(),
  /** Values of the project-extension fields defined in settings/project. */
  extra: z.record(z.string(), z.unknown()).optional(),
};

const templateChosen = (b: { projectType?: string; type?: string | null | undefined }) =>
  b.projectType !== 'template' || Boolean(b.type);

/** POST project; the id is generated when empty. */
export const projectCreateBody = z
  .object({ id: z.preprocess((id) => (id === '' ? undefined : id), projectIdSchema.optional()), ...projectFields })
  .strict()
  .refine(templateChosen, { error: 'project.templateRequired', path: ['type'] });
export type ProjectCreateBody = z.infer<typeof projectCreateBody>;

/** PUT project/{id}: every field again, without id and createTime. */
export const projectUpdateBody = z
  .object(projectFields)
  .strict()
  .refine(templateChosen, { error: 'project.templateRequired', path: ['type'] });
export type ProjectUpdateBody = z.infer<typeof projectUpdateBody>;

export const statItem = z.object({
  type: z.string().max(64).default('device'),
  count: z.number().int().min(0),
  online: z.number().int().min(0),
});

/** What a project runtime reports (PUT project/{id}/usage): amounts in use by measure, devices by type. */
export const usageReportBody = z.object({
  usage: z.object({
    userCount: z.number().int().min(0).optional(),
    flow: z
      .object({ tableCount: z.number().int().min(0), flowCount: z.number().int().min(0) })
      .partial()
      .optional(),
    dataGathering: z
      .object({
        point: z.number().int().min(0),
        calcPoint: z.number().int().min(0),
        deviceCount: z.number().int().min(0),
      })
      .partial()
      .optional(),
    visual: z
      .object({ dashboardCount: z.number().int().min(0) })
      .partial()
      .optional(),
    eventCount: z.number().int().min(0).optional(),
    eventHandlerCount: z.number().int().min(0).optional(),
    reportCount: z.number().int().min(0).optional(),
    dataAnalysisLinkCount: z.number().int().min(0).optional(),
  }),
  _stats_: z.array(statItem).max(1000).default([]),
  online: z.boolean().optional(),
});
export type UsageReport = z.infer<typeof usageReportBody>;

export const projectView = z.object({
  id: z.string(),
  name: z.string(),
  status: z.boolean(),
  user: z.object({ id: z.string(), name: z.string() }),
  createTime: z.string(),
  industry: z.string().nullable(),
  grant: grantView.nullable(),
  /** Latest reported usage, by measure (same shape as a grant's counts). */
  license: z.record(z.string(), z.unknown()).nullable(),
  licenseReportedAt: z.string().nullable(),
  _stats_: z.array(statItem),
  online: z.boolean(),
  hasSSO: z.boolean(),
  remarks: z.string().nullable(),
  bgColor: z.string().nullable(),
  domain: z.string().nullable(),
  isUseDomain: z.boolean(),
  isUseHttps: z.boolean(),
  port: z.number().nullable(),
  advanced: advancedSchema,
  projectType: z.enum(PROJECT_TYPES),
  type: z.string().nullable(),
  planId: z.string().nullable(),
  logo: z.string().nullable(),
  extra: z.record(z.string(), z.unknown()),
  certificate: z.object({ key: z.string(), pem: z.string() }).nullable(),
});
export type ProjectView = z.infer<typeof projectView>;

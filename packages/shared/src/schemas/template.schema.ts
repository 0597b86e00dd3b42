import { z } from 'zod';
import type { Collection } from '../data-modules.js';
import { INDUSTRIES } from '../validations.js';
import { projectCreateBody, projectIdSchema } from './project.schema.js';

/** The parts of a template a project is made from (console.md §9 "Template collections"). */
export const TEMPLATE_COLLECTIONS = ['model', 'node', 'report', 'table', 'dashboard'] as const;
export type TemplateCollection = (typeof TEMPLATE_COLLECTIONS)[number];

/**
 * The data modules (collections) each part brings. A collection of the package named by no part
 * (rules, flows, settings, themes…) comes with every install: the parts it serves need it.
 */
export const TEMPLATE_COLLECTION_MODULES: Record<TemplateCollection, readonly Collection[]> = {
  model: ['table', 'table_data', 'dataset', 'dataset_view', 'data_interface'],
  node: ['driver_instance', 'driver_event_cron', 'driver_instruct_cron', 'data_record'],
  report: ['report', 'report_copy'],
  table: ['table_record', 'dept'],
  dashboard: ['dashboard', 'catalog', 'site', 'component', 'style', 'script_setting', 'resource_type'],
};

/** The collections of a package that an install with `parts` brings. */
export function templateModules(packageModules: readonly string[], parts: readonly TemplateCollection[]): string[] {
  const named = new Set<string>(Object.values(TEMPLATE_COLLECTION_MODULES).flat());
  const chosen = new Set<string>(parts.flatMap((part) => TEMPLATE_COLLECTION_MODULES[part]));
  return packageModules.filter((module) => chosen.has(module) || !named.has(module));
}

/** app_info: what a template holds, counted from its package's documents. */
export const TEMPLATE_APP_INFO = {
  models: 'table',
  nodes: 'driver_instance',
  views: 'dashboard',
  worksheets: 'dataset_view',
  reports: 'report',
  flows: 'flow',
} as const satisfies Record<string, Collection>;
export type TemplateAppInfo = Record<keyof typeof TEMPLATE_APP_INFO, number>;

export function appInfoOf(modules: Record<string, number>): TemplateAppInfo {
  const info = {} as TemplateAppInfo;
  for (const [key, collection] of Object.entries(TEMPLATE_APP_INFO)) {
    info[key as keyof TemplateAppInfo] = modules[collection] ?? 0;
  }
  return info;
}

export const TEMPLATE_SOURCES = ['builtin', 'platform', 'tenant'] as const;
export type TemplateSource = (typeof TEMPLATE_SOURCES)[number];
export const TEMPLATE_LIMITS = { nameMax: 64, textMax: 256, descriptionMax: 20_000, imagesMax: 12, listMax: 1000 };

/**
 * Cover and long-description images of templates (issue 14 §1): uploaded one at a time
 * (`POST templates/images`), checked by content (never by name or declared type), stored under the
 * data directory by their SHA-256 and served read-only. SVG is never accepted (it can carry script).
 */
export const TEMPLATE_IMAGE_LIMITS = {
  /** Bytes of one image. */
  bytes: 2 * 1024 * 1024,
  /** Pixels of either side (a small file that decodes to a huge picture is refused). */
  sideMax: 4096,
  /** The types accepted (by their first bytes). */
  types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
} as const;
/** Where uploaded template images are served; a card names its cover and images by these URLs only. */
export const TEMPLATE_IMAGE_PATH = '/portal/rest/spm/templates/images';
/** An uploaded template image's URL (the name is its SHA-256 and type). */
export const TEMPLATE_IMAGE_URL = /^\/portal\/rest\/spm\/templates\/images\/[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

/** `GET templates?name_contains=&industry=` (plus paging: skip, limit). */
export const templateListQuery = /* @__PURE__ */ z.object({
  name_contains: z.string().trim().max(TEMPLATE_LIMITS.nameMax).optional(),
  industry: z.union([z.enum(INDUSTRIES), z.literal('')]).optional(),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(TEMPLATE_LIMITS.listMax).default(200),
});
export type TemplateListQuery = z.infer<typeof templateListQuery>;

/** A template as the gallery and the preview show it (console.md §3 "Template"). */
export const templateView = /* @__PURE__ */ z.object({
  id: z.string(),
  schemaId: z.string(),
  name: z.string(),
  developer: z.string(),
  /** The developer's contact (the preview shows it to everyone). */
  contact: z.string(),
  industry: z.string(),
  card_display: z.object({ cover: z.string(), intro: z.string() }),
  template_description: z.string(),
  /** The long description's images (URLs). */
  images: z.array(z.string()),
  num_installed: z.number(),
  updated_at: z.string(),
  /** When it was published. */
  publish_time: z.string(),
  app_info: z.object({
    models: z.number(),
    nodes: z.number(),
    views: z.number(),
    worksheets: z.number(),
    reports: z.number(),
    flows: z.number(),
  }),
  plan_detail: z.record(z.string(), z.unknown()).nullable(),
  /** Always 'project template' (the preview's type). */
  type: z.literal('project template'),
  source: z.enum(TEMPLATE_SOURCES),
  published: z.boolean(),
  /** The caller owns it (may edit, unpublish, export, delete). */
  mine: z.boolean(),
  /** The caller may start a project from it (signed in, and its project permissions allow it). */
  usable: z.boolean(),
  /** The package, for its owner only (a token is needed); null for anybody else. */
  download_url: z.string().nullable(),
});
export type TemplateView = z.infer<typeof templateView>;

/**
 * `POST project/_template`: the project body (POST project's) plus projectId (the new project's id;
 * `id` works too), collections (which parts to install; all when absent) and url (the template's
 * download_url as the client saw it; the server installs from its own stored package, never from a URL).
 */
const templateBodyObject = /* @__PURE__ */ projectCreateBody.safeExtend({
  type: z.string().trim().min(1, { error: 'project.templateRequired' }).max(128),
  projectId: z.preprocess((id) => (id === '' ? undefined : id), projectIdSchema.optional()),
  collections: z
    .array(z.enum(TEMPLATE_COLLECTIONS))
    .max(TEMPLATE_COLLECTIONS.length)
    .default([...TEMPLATE_COLLECTIONS]),
  url: z.string().max(2048).nullish(),
});
/** projectType, when absent, is 'template' (the server makes a template project whatever it says). */
export const projectFromTemplateBody = /* @__PURE__ */ z.preprocess(
  (body) =>
    body !== null && typeof body === 'object' && !('projectType' in body) ? { ...body, projectType: 'template' } : body,
  templateBodyObject,
);
export type ProjectFromTemplateBody = z.infer<typeof projectFromTemplateBody>;

/** The task that installs a template into a new project. */
export const TEMPLATE_TASK_INSTALL = 'template.install';
/** The task that publishes a project as a template. */
export const TEMPLATE_TASK_PUBLISH = 'template.publish';

/** Collections a template never carries: the project's accounts, sessions, messages and app keys. */
export const TEMPLATE_LEFT_OUT = ['user', 'safezone', 'oauth_app', 'message'] as const;

const cardFields = {
  name: z.string().trim().min(1).max(TEMPLATE_LIMITS.nameMax),
  industry: z.enum(INDUSTRIES),
  developer: z.string().trim().min(1).max(TEMPLATE_LIMITS.textMax),
  contact: z.string().trim().max(TEMPLATE_LIMITS.textMax),
  intro: z.string().trim().max(TEMPLATE_LIMITS.textMax),
  description: z.string().max(TEMPLATE_LIMITS.descriptionMax),
  /** The cover's URL (an image uploaded by `POST templates/images`); empty: drawn from the name and industry. */
  cover: z.union([z.literal(''), z.string().regex(TEMPLATE_IMAGE_URL, { error: 'template.imageUrl' })]).nullish(),
  /** The long description's images (uploaded the same way), in order. */
  images: z.array(z.string().regex(TEMPLATE_IMAGE_URL, { error: 'template.imageUrl' })).max(TEMPLATE_LIMITS.imagesMax),
  plan_detail: z.record(z.string(), z.unknown()).nullish(),
};

/**
 * `POST templates`: publish a project as a template (a task). `modules`: the collections to carry
 * (linked ones follow, as in a backup; the accounts never); `fileServer`/`html`: the project's files.
 */
export const templatePublishBody = /* @__PURE__ */ z
  .object({
    projectId: z.string().min(1).max(64),
    ...cardFields,
    contact: cardFields.contact.default(''),
    intro: cardFields.intro.default(''),
    description: cardFields.description.default(''),
    images: cardFields.images.default([]),
    modules: z
      .array(z.string().max(64))
      .max(64)
      .default(['dashboard', 'table', 'table_record', 'rule', 'report', 'flow']),
    fileServer: z.boolean().default(true),
    html: z.boolean().default(true),
    requestId: z.string().max(64).optional(),
  })
  .strict();
export type TemplatePublishBody = z.infer<typeof templatePublishBody>;

/** `PATCH templates/{id}`: the card, and published (unpublish / publish again). */
export const templatePatchBody = /* @__PURE__ */ z
  .object({ ...cardFields, published: z.boolean() })
  .partial()
  .strict();
export type TemplatePatchBody = z.infer<typeof templatePatchBody>;

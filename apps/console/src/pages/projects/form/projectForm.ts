import {
  ADMIN_USER_ID,
  type Industry,
  type ProjectCreateBody,
  type ProjectUpdateBody,
  type ProjectView,
  type PUBLIC_DIR_PERMISSIONS,
  projectCreateBody,
  projectUpdateBody,
} from '@gantry/shared';
import { longestField } from '../../../utils/fieldErrors';
import type { CertificatePair } from './certificates';

/** What the project form edits; `grant` is the GrantForm's object (startTime as YYYY-MM-DD). */
export interface ProjectFormValues {
  id?: string;
  name?: string;
  industry?: Industry;
  user?: string;
  projectType?: 'blank' | 'template';
  type?: string | null;
  grant?: Record<string, unknown>;
  hasSSO?: boolean;
  remarks?: string | null;
  bgColor?: string | null;
  domain?: string | null;
  isUseDomain?: boolean;
  isUseHttps?: boolean;
  certificates?: CertificatePair;
  port?: number | null;
  advanced?: {
    mediaLibraryPublicDirEnable?: boolean;
    mediaLibraryPublicDirFeature?: (typeof PUBLIC_DIR_PERMISSIONS)[number][];
  };
  logo?: string | null;
  /** Project extension values (settings/project). */
  extra?: Record<string, unknown>;
}

/** A new project: blank, owned by the platform when the administrator adds it, or from a template id. */
export function newProjectValues(options: { isAdmin: boolean; template?: string | null }): ProjectFormValues {
  return {
    id: '',
    user: options.isAdmin ? ADMIN_USER_ID : undefined,
    projectType: options.template ? 'template' : 'blank',
    type: options.template ?? null,
    isUseDomain: false,
    isUseHttps: false,
    advanced: { mediaLibraryPublicDirEnable: false, mediaLibraryPublicDirFeature: [] },
  };
}

/** A loaded project as form values (the grant without the answer-only remainingTime and endTime). */
export function toFormValues(project: ProjectView): ProjectFormValues {
  let grant: Record<string, unknown> | undefined;
  if (project.grant) {
    const { remainingTime: _remaining, endTime: _end, ...stored } = project.grant;
    grant = stored;
  }
  return {
    name: project.name,
    industry: (project.industry ?? undefined) as Industry | undefined,
    user: project.user.id,
    projectType: project.projectType,
    type: project.type,
    grant,
    hasSSO: project.hasSSO,
    remarks: project.remarks,
    bgColor: project.bgColor,
    domain: project.domain,
    isUseDomain: project.isUseDomain,
    isUseHttps: project.isUseHttps,
    certificates: project.certificate
      ? { key: { name: project.certificate.key }, pem: { name: project.certificate.pem } }
      : undefined,
    port: project.port,
    advanced: {
      mediaLibraryPublicDirEnable: project.advanced.mediaLibraryPublicDirEnable,
      mediaLibraryPublicDirFeature: [...project.advanced.mediaLibraryPublicDirFeature],
    },
    logo: project.logo,
    extra: { ...project.extra },
  };
}

/** Drops what is not set, so optional measures left empty carry no limit of their own. */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(compact);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    out[key] = compact(item);
  }
  return out;
}

type Built<T> = { ok: true; body: T } | { ok: false; fields: Record<string, string> };

function candidate(values: ProjectFormValues, options: { isAdmin: boolean; loaded?: ProjectView }) {
  const blank = values.projectType !== 'template';
  const publicDir = values.advanced?.mediaLibraryPublicDirEnable === true;
  const text = (s: string | null | undefined) => (s?.trim() ? s.trim() : null);
  return {
    name: values.name ?? '',
    industry: values.industry,
    grant: compact(values.grant ?? {}),
    projectType: values.projectType ?? 'blank',
    type: blank ? null : text(values.type),
    ...(options.isAdmin && values.user ? { user: values.user } : {}),
    hasSSO: values.hasSSO ?? options.loaded?.hasSSO ?? false,
    remarks: text(values.remarks),
    bgColor: values.bgColor || null,
    domain: text(values.domain),
    isUseDomain: values.isUseDomain ?? false,
    isUseHttps: values.isUseHttps ?? false,
    port: values.port ?? null,
    advanced: {
      mediaLibraryPublicDirEnable: publicDir,
      mediaLibraryPublicDirFeature: publicDir ? (values.advanced?.mediaLibraryPublicDirFeature ?? []) : [],
    },
    planId: options.loaded?.planId ?? null,
    logo: values.logo || null,
    ...extraOf(values, options.loaded),
  };
}

/** The extension values: those loaded, then the form's (a field emptied is sent as null). */
function extraOf(values: ProjectFormValues, loaded: ProjectView | undefined): { extra?: Record<string, unknown> } {
  const given = Object.fromEntries(
    Object.entries(values.extra ?? {}).map(([name, value]) => [
      name,
      value === undefined || value === '' ? null : value,
    ]),
  );
  if (!loaded && Object.keys(given).length === 0) return {};
  return { extra: { ...(loaded?.extra ?? {}), ...given } };
}

function issuesToFields(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[issue.path.map(String).join('.')] ??= issue.message;
  return fields;
}

/** POST project: the form's values checked by the shared projectCreateBody (an empty id is generated by the server). */
export function buildCreateBody(values: ProjectFormValues, isAdmin: boolean): Built<ProjectCreateBody> {
  const id = values.id?.trim() ?? '';
  const parsed = projectCreateBody.safeParse({ ...candidate(values, { isAdmin }), ...(id ? { id } : {}) });
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, fields: issuesToFields(parsed.error.issues) };
}

/** PUT project/{id}: every field again (planId and extension values as loaded). */
export function buildUpdateBody(
  values: ProjectFormValues,
  isAdmin: boolean,
  loaded: ProjectView,
): Built<ProjectUpdateBody> {
  const parsed = projectUpdateBody.safeParse(candidate(values, { isAdmin, loaded }));
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, fields: issuesToFields(parsed.error.issues) };
}

/** Form items, as dotted paths; a server or schema path goes to the longest one it starts with. */
const FORM_FIELDS = [
  'id',
  'name',
  'industry',
  'user',
  'projectType',
  'type',
  'grant.validityPeriod',
  'grant.startTime',
  'grant.userCount',
  'grant.flow.tableCount',
  'grant.flow.flowCount',
  'grant.dataGathering.point',
  'grant.dataGathering.calcPoint',
  'grant.dataGathering.deviceCount',
  'grant.visual.dashboardCount',
  'grant.eventCount',
  'grant.eventHandlerCount',
  'grant.reportCount',
  'grant.dataAnalysisLinkCount',
  'grant.features',
  'hasSSO',
  'remarks',
  'bgColor',
  'domain',
  'isUseDomain',
  'isUseHttps',
  'certificates',
  'port',
  'advanced.mediaLibraryPublicDirEnable',
  'advanced.mediaLibraryPublicDirFeature',
  'logo',
] as const;

/** Field names the server may use that the form shows elsewhere. */
const ALIASES: Record<string, string> = { certKey: 'certificates', certPem: 'certificates', cert: 'certificates' };
/** Error codes that belong to one field when the answer names none. */
export const CODE_FIELDS: Record<string, string> = {
  projectIdTaken: 'id',
  domainTaken: 'domain',
  portTaken: 'port',
  templateRequired: 'type',
  certificatesRequired: 'certificates',
  certificateFiles: 'certificates',
  ownerUnknown: 'user',
};

export function formFieldFor(path: string): string[] | null {
  const target = ALIASES[path] ?? path;
  // Extension fields: `extra.<identifier>` (an identifier has no dot).
  const extension = /^extra\.([^.]+)/.exec(target);
  if (extension?.[1]) return ['extra', extension[1]];
  return longestField(target, FORM_FIELDS);
}

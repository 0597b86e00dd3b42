import { advancedSchema, type ProjectView, viewGrant } from '@gantry/shared';
import type { ProjectWithOwner } from './project.repository.js';

/** A project row (with its owner's name) as the API answers it; `today` dates the grant's remaining time. */
export function projectViewOf(row: ProjectWithOwner, today: string): ProjectView {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    user: { id: row.userId, name: row.ownerName },
    createTime: row.createdAt.toISOString(),
    industry: row.industry,
    grant: row.grant ? viewGrant(row.grant, today) : null,
    license: row.usage ?? null,
    licenseReportedAt: row.usageReportedAt?.toISOString() ?? null,
    _stats_: row.stats,
    online: row.online,
    hasSSO: row.hasSso,
    remarks: row.remarks,
    bgColor: row.bgColor,
    domain: row.domain,
    isUseDomain: row.isUseDomain,
    isUseHttps: row.isUseHttps,
    port: row.port,
    // Rows keep what was stored; defaults fill anything an older or hand-made row lacks.
    advanced: advancedSchema.parse(row.advanced ?? {}),
    projectType: row.projectType,
    type: row.templateId,
    planId: row.planId,
    logo: row.logo,
    extra: row.extra,
    certificate: row.certKey && row.certPem ? { key: row.certKey, pem: row.certPem } : null,
  };
}

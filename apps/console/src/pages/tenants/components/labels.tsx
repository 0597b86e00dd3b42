import { INDUSTRIES, type Industry } from '@gantry/shared';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { pathTo } from '../../../app/paths';

export function industryText(t: TFunction, industry: string | null | undefined): string {
  if (!industry) return '-';
  return (INDUSTRIES as readonly string[]).includes(industry) ? t(`tenant.industry.${industry as Industry}`) : industry;
}

export function typeText(t: TFunction, type: number): string {
  return type === 1 ? t('tenant.type.1') : t('tenant.type.0');
}

export function StatusTag({ status, testId }: { status: boolean; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={status ? 'green' : 'default'} data-testid={testId} data-status={status ? 'enabled' : 'disabled'}>
      {status ? t('tenant.status.enabled') : t('tenant.status.disabled')}
    </Tag>
  );
}

/** The tenant's project page on small screens (cards and a back button). */
export function tenantProjectsPath(id: string, name: string): string {
  return pathTo('tenantProjects', { id }, { name });
}

import type { LicenceSummary } from '@gantry/shared';
import { Descriptions, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { GrantSummary } from '../../../components/GrantSummary';
import { formatDateTime } from '../../../utils/dateTime';

/** What a licence file says: who it is for, for which machine, its key, and the grant. */
export function LicenceSummaryView({ licence }: { licence: LicenceSummary }) {
  const { t } = useTranslation();
  return (
    <div data-testid="license-summary">
      <Descriptions size="small" column={{ xs: 1, md: 2 }} style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('licence.licenceId')}>
          <span data-testid="license-summary-id">{licence.licenceId}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.product')}>{licence.product}</Descriptions.Item>
        <Descriptions.Item label={t('licence.licensee')}>{licence.licensee ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('licence.machineCode')}>{licence.machineCode}</Descriptions.Item>
        <Descriptions.Item label={t('licence.issuedAt')}>{formatDateTime(licence.issuedAt)}</Descriptions.Item>
        <Descriptions.Item label={t('licence.keyId')}>
          <Space size={4}>
            {licence.keyId}
            {licence.development ? (
              <Tag color="purple" data-testid="license-summary-development">
                {t('licence.development')}
              </Tag>
            ) : null}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      <GrantSummary grant={licence.grant} />
    </div>
  );
}

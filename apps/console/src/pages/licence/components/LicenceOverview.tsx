import { effectiveFeatures, type LicenceInfo } from '@gantry/shared';
import { Descriptions, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { lastDay, RemainingDays } from '../../../components/GrantSummary';
import { LicenceStateTag } from '../../../components/LicenceStatus';
import { LicenceAlert } from '../../../components/LicenceStatus/LicenceAlert';
import { translateMessage } from '../../../i18n';
import { formatDateTime } from '../../../utils/dateTime';
import { MachineCode } from './MachineCode';

/** The installed licence: warnings, who it is for, its key, dates, days left, features and this machine's code. */
export function LicenceOverview({ info }: { info: LicenceInfo }) {
  const { t } = useTranslation();
  const { grant } = info;
  const features = [...effectiveFeatures(grant.features)];
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <LicenceAlert info={info} testIdPrefix="license" />
      <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }} data-testid="license-overview">
        <Descriptions.Item label={t('licence.state')}>
          <LicenceStateTag info={info} />
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.licenceId')}>
          <span data-testid="license-licence-id">{info.licenceId}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.product')}>
          <span data-testid="license-product">{info.product}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.licensee')}>
          <span data-testid="license-licensee">{info.licensee ?? '-'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.keyId')}>
          <Space size={4}>
            <span data-testid="license-key-id">{info.keyId}</span>
            {info.development ? (
              <Tooltip title={t('licence.developmentHelp')}>
                <Tag color="purple" data-testid="license-development">
                  {t('licence.development')}
                </Tag>
              </Tooltip>
            ) : null}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.issuedAt')}>
          <span data-testid="license-issued-at">{formatDateTime(info.issuedAt)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.installedAt')}>
          <span data-testid="license-installed-at">{formatDateTime(info.installedAt)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('grant.label.startTime')}>
          <span data-testid="license-start">{grant.startTime}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('grant.label.endTime')}>
          <span data-testid="license-end">{lastDay(grant)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.validity')}>
          <span data-testid="license-validity">{t('licence.days', { days: grant.validityPeriod })}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.remainingDays')}>
          <RemainingDays days={info.remainingDays} testId="license-remaining" />
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.machineCode')}>
          <MachineCode />
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.features')} span="filled">
          <Space size={[4, 4]} wrap data-testid="license-features">
            {features.length === 0
              ? t('licence.noFeatures')
              : features.map((key) => (
                  <Tag key={key} color="blue" data-feature={key}>
                    {translateMessage(`grant.feature.${key}`)}
                  </Tag>
                ))}
          </Space>
        </Descriptions.Item>
      </Descriptions>
    </Space>
  );
}

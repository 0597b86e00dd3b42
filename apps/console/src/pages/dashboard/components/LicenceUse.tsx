import { Alert, Button, Card, Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../../app/paths';
import { lastDay, RemainingDays } from '../../../components/GrantSummary';
import { ScrollTable } from '../../../components/ScrollTable';
import { translateMessage } from '../../../i18n';
import type { Dashboard, MeasureUse } from '../../../services/dashboard';
import { rowTestId } from '../../../utils/testId';

function percent(part: number, whole: number | null): number {
  if (!whole) return 0;
  return Math.min(100, Math.round((part / whole) * 100));
}

/** The licence in force: period, days left (warning under 14), and per measure granted / allocated / used. */
export function LicenceUse({ licence, isAdmin }: { licence: Dashboard['licence']; isAdmin: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (!licence) {
    return (
      <Card title={t('dashboard.licence')}>
        <Alert
          type="info"
          showIcon
          data-testid="dashboard-no-licence"
          title={isAdmin ? t('dashboard.noLicence') : t('tenant.noGrant')}
          action={
            isAdmin ? (
              <Button
                size="small"
                type="primary"
                data-testid="dashboard-upload-licence"
                onClick={() => navigate(PATHS.licence)}
              >
                {t('licence.upload')}
              </Button>
            ) : null
          }
        />
      </Card>
    );
  }
  const { grant } = licence;
  const number = (value: number | null) => (value === null ? t('dashboard.unlimited') : value.toLocaleString());
  return (
    <Card
      title={`${t('dashboard.licence')} · ${t(`dashboard.licence.${licence.kind}`)}`}
      data-testid="dashboard-licence"
    >
      <Space orientation="vertical" style={{ width: '100%', marginBottom: 12 }}>
        <Typography.Text>{t('dashboard.validity', { start: grant.startTime, end: lastDay(grant) })}</Typography.Text>
        <RemainingDays days={grant.remainingTime} testId="dashboard-remaining" />
      </Space>
      <ScrollTable<MeasureUse>
        rowKey="path"
        size="small"
        pagination={false}
        dataSource={licence.measures}
        scroll={{ x: 'max-content' }}
        onRow={(row) => rowTestId(`dashboard-measure-${row.path}`)}
        columns={[
          {
            key: 'label',
            title: t('dashboard.measure'),
            render: (_v, row) => translateMessage(`grant.label.${row.path}`),
          },
          { key: 'granted', title: t('dashboard.granted'), render: (_v, row) => number(row.granted) },
          { key: 'allocated', title: t('dashboard.allocated'), render: (_v, row) => row.allocated.toLocaleString() },
          { key: 'used', title: t('dashboard.used'), render: (_v, row) => row.used.toLocaleString() },
          {
            key: 'bar',
            title: `${t('dashboard.allocated')} / ${t('dashboard.used')}`,
            width: 180,
            render: (_v, row) =>
              row.granted === null ? null : (
                <Progress
                  size="small"
                  aria-label={translateMessage(`grant.label.${row.path}`)}
                  percent={percent(row.allocated, row.granted)}
                  success={{ percent: percent(row.used, row.granted) }}
                  status={row.allocated > row.granted ? 'exception' : 'normal'}
                />
              ),
          },
        ]}
      />
    </Card>
  );
}

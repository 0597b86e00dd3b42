import {
  dateOfDay,
  effectiveFeatures,
  FEATURE_KEYS,
  grantEndDay,
  LICENCE_WARNING_DAYS,
  localDate,
  MEASURES,
  type MeasurePath,
  measureOf,
  type ProjectView,
  remainingDays,
} from '@gantry/shared';
import { Descriptions, Empty, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { rowTestId } from '../../../utils/testId';
import { remainingOf } from '../projectNumbers';
import { slug } from '../testIds';

interface Row {
  path: MeasurePath;
  granted: number | undefined;
  used: number;
  remaining: number | null;
}

/** A project's licence: every measure granted / used / remaining, the period and the features. */
export function LicenceDetail({ project }: { project: Pick<ProjectView, 'grant' | 'license' | 'licenseReportedAt'> }) {
  const { t } = useTranslation();
  const { grant } = project;
  if (!grant) return <Empty data-testid="licence-detail" description={t('project.noGrant')} />;

  const days = remainingDays(grant, localDate(new Date()));
  const features = effectiveFeatures(grant.features);
  const rows: Row[] = MEASURES.map(({ path }) => ({
    path,
    granted: measureOf(grant, path),
    used: measureOf(project.license, path) ?? 0,
    remaining: remainingOf(project, path),
  }));
  const unlimited = t('grant.unlimited');

  return (
    <div data-testid="licence-detail">
      <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('grant.label.startTime')}>{grant.startTime}</Descriptions.Item>
        <Descriptions.Item label={t('grant.label.endTime')}>{dateOfDay(grantEndDay(grant) - 1)}</Descriptions.Item>
        <Descriptions.Item label={t('project.remainingDays')}>
          <Typography.Text data-testid="licence-detail-days" type={days < LICENCE_WARNING_DAYS ? 'danger' : undefined}>
            {t('project.days', { days })}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('grant.label.validityPeriod')}>
          {t('project.days', { days: grant.validityPeriod })}
        </Descriptions.Item>
        <Descriptions.Item label={t('project.usageReportedAt')}>{project.licenseReportedAt ?? '-'}</Descriptions.Item>
      </Descriptions>
      <Table<Row>
        size="small"
        rowKey="path"
        pagination={false}
        dataSource={rows}
        onRow={(row) => rowTestId(`licence-detail-${slug(row.path)}`)}
        columns={[
          { title: t('project.measure'), dataIndex: 'path', render: (path: MeasurePath) => t(`grant.label.${path}`) },
          { title: t('project.granted'), dataIndex: 'granted', render: (v: number | undefined) => v ?? unlimited },
          { title: t('project.used'), dataIndex: 'used' },
          { title: t('project.remaining'), dataIndex: 'remaining', render: (v: number | null) => v ?? unlimited },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('grant.features')}
      </Typography.Title>
      <div data-testid="licence-detail-features">
        {FEATURE_KEYS.filter((key) => features.has(key)).map((key) => (
          <Tag key={key} color="blue">
            {t(`grant.feature.${key}`)}
          </Tag>
        ))}
        {FEATURE_KEYS.every((key) => !features.has(key)) ? <Typography.Text type="secondary">-</Typography.Text> : null}
      </div>
    </div>
  );
}

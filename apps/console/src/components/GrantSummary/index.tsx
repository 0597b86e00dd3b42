import {
  dateOfDay,
  dayNumber,
  effectiveFeatures,
  type GrantView,
  LICENCE_WARNING_DAYS,
  MEASURES,
  type MeasureValues,
  measureOf,
} from '@gantry/shared';
import { Descriptions, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n';
import { rowTestId } from '../../utils/testId';

/** The last day a grant covers (its `endTime` is the first day it no longer does). */
export function lastDay(grant: Pick<GrantView, 'endTime'>): string {
  return dateOfDay(dayNumber(grant.endTime) - 1);
}

/** Days left, orange under LICENCE_WARNING_DAYS (console.md §8 licence reminder), red once ended. */
export function RemainingDays({ days, testId }: { days: number; testId?: string }) {
  const { t } = useTranslation();
  const color = days <= 0 ? 'red' : days < LICENCE_WARNING_DAYS ? 'orange' : 'green';
  return (
    <Space size={4} wrap data-testid={testId} data-days={days}>
      <Tag color={color}>{t('dashboard.remaining', { days })}</Tag>
      {days <= 0 ? (
        <Typography.Text type="danger">{t('licence.expired')}</Typography.Text>
      ) : days < LICENCE_WARNING_DAYS ? (
        <Typography.Text type="warning">
          {t('dashboard.licenceWarning', { days: LICENCE_WARNING_DAYS })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

interface MeasureRow {
  path: string;
  granted: number | undefined;
  allocated: number | undefined;
}

/** A grant: period, days left, measures (with what is allocated below it, if given) and features. */
export function GrantSummary({ grant, allocated }: { grant: GrantView; allocated?: MeasureValues }) {
  const { t } = useTranslation();
  const features = [...effectiveFeatures(grant.features)];
  const rows: MeasureRow[] = MEASURES.map(({ path }) => ({
    path,
    granted: measureOf(grant, path),
    allocated: allocated?.[path],
  }));
  const number = (value: number | undefined) =>
    value === undefined ? t('dashboard.unlimited') : value.toLocaleString();
  return (
    <div data-testid="grant-summary">
      <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('grant.label.startTime')}>{grant.startTime}</Descriptions.Item>
        <Descriptions.Item label={t('grant.label.endTime')}>{lastDay(grant)}</Descriptions.Item>
        <Descriptions.Item label={t('grant.label.validityPeriod')}>
          {grant.validityPeriod} {t('unit.d')}
        </Descriptions.Item>
        <Descriptions.Item label={t('tenant.remainingDays')}>
          <RemainingDays days={grant.remainingTime} testId="grant-remaining" />
        </Descriptions.Item>
        <Descriptions.Item label={t('tenant.features')} span="filled">
          {features.length === 0 ? (
            t('tenant.none')
          ) : (
            <Space size={[4, 4]} wrap>
              {features.map((key) => (
                <Tag key={key} color="blue">
                  {translateMessage(`grant.feature.${key}`)}
                </Tag>
              ))}
            </Space>
          )}
        </Descriptions.Item>
      </Descriptions>
      <Table<MeasureRow>
        rowKey="path"
        size="small"
        pagination={false}
        dataSource={rows}
        onRow={(row) => rowTestId(`grant-measure-${row.path}`)}
        columns={[
          {
            key: 'label',
            title: t('dashboard.measure'),
            render: (_v, row) => translateMessage(`grant.label.${row.path}`),
          },
          { key: 'granted', title: t('dashboard.granted'), render: (_v, row) => number(row.granted) },
          ...(allocated
            ? [
                {
                  key: 'allocated',
                  title: t('tenant.allocated'),
                  render: (_v: unknown, row: MeasureRow) => (row.allocated ?? 0).toLocaleString(),
                },
              ]
            : []),
        ]}
      />
    </div>
  );
}

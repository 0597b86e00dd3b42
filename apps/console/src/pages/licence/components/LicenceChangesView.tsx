import type { LicenceChanges } from '@gantry/shared';
import { Space, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { lastDay } from '../../../components/GrantSummary';
import { translateMessage } from '../../../i18n';

type PeriodChange = LicenceChanges['period'][number];

function periodValue(field: PeriodChange['field'], value: string | number | null, t: TFunction): string {
  if (value === null) return '-';
  if (field === 'validityPeriod') return t('licence.days', { days: value });
  // endTime, like a grant's, is the first day no longer covered: shown as the last covered day
  if (field === 'endTime' && typeof value === 'string') return lastDay({ endTime: value });
  return String(value);
}

function Change({ testId, label, before, after }: { testId: string; label: string; before: string; after: string }) {
  return (
    <li data-testid={testId}>
      <Typography.Text strong>{label}</Typography.Text>
      {': '}
      <Typography.Text delete={before !== '-'} type="secondary">
        {before}
      </Typography.Text>
      {' → '}
      <Typography.Text>{after}</Typography.Text>
    </li>
  );
}

/** A feature by name, with its key when that differs (the key is what the vendor's file says). */
function featureName(key: string): string {
  const name = translateMessage(`grant.feature.${key}`);
  return name === key ? key : `${name} (${key})`;
}

function FeatureTags({ keys, color, testId, label }: { keys: string[]; color: string; testId: string; label: string }) {
  if (keys.length === 0) return null;
  return (
    <div data-testid={testId}>
      <Typography.Text strong>{label}</Typography.Text>
      {': '}
      <Space size={[4, 4]} wrap>
        {keys.map((key) => (
          <Tag key={key} color={color} data-feature={key}>
            {featureName(key)}
          </Tag>
        ))}
      </Space>
    </div>
  );
}

/** What applying a licence changes: first install, each measure before → after, the period, features. */
export function LicenceChangesView({ changes }: { changes: LicenceChanges }) {
  const { t } = useTranslation();
  const count = (value: number | null) => (value === null ? t('dashboard.unlimited') : value.toLocaleString());
  const nothing =
    !changes.first &&
    changes.measures.length === 0 &&
    changes.period.length === 0 &&
    changes.featuresAdded.length === 0 &&
    changes.featuresRemoved.length === 0;
  return (
    <Space orientation="vertical" size={8} data-testid="license-changes" style={{ width: '100%' }}>
      {changes.first ? (
        <Tag color="green" data-testid="license-change-first">
          {t('licence.change.first')}
        </Tag>
      ) : null}
      {nothing ? <Typography.Text data-testid="license-change-none">{t('licence.change.none')}</Typography.Text> : null}
      {changes.measures.length + changes.period.length > 0 ? (
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {changes.period.map((c) => (
            <Change
              key={c.field}
              testId={`license-change-period-${c.field}`}
              label={translateMessage(`grant.label.${c.field}`)}
              before={periodValue(c.field, c.before, t)}
              after={periodValue(c.field, c.after, t)}
            />
          ))}
          {changes.measures.map((c) => (
            <Change
              key={c.path}
              testId={`license-change-measure-${c.path}`}
              label={translateMessage(`grant.label.${c.path}`)}
              before={changes.first && c.before === null ? '-' : count(c.before)}
              after={count(c.after)}
            />
          ))}
        </ul>
      ) : null}
      <FeatureTags
        keys={changes.featuresAdded}
        color="green"
        testId="license-change-features-added"
        label={t('licence.change.featuresAdded')}
      />
      <FeatureTags
        keys={changes.featuresRemoved}
        color="red"
        testId="license-change-features-removed"
        label={t('licence.change.featuresRemoved')}
      />
    </Space>
  );
}

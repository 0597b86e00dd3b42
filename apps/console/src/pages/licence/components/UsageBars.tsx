import { type LicenceInfo, MEASURES, type MeasurePath, measureOf } from '@gantry/shared';
import { Col, Progress, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../i18n';

function percent(part: number, whole: number): number {
  return whole > 0 ? Math.min(100, Math.round((part / whole) * 100)) : 0;
}

function UsageRow({ info, path }: { info: LicenceInfo; path: MeasurePath }) {
  const { t } = useTranslation();
  const granted = measureOf(info.grant, path);
  const allocated = info.allocated[path] ?? 0;
  const used = info.used[path] ?? 0;
  const over = granted !== undefined && allocated > granted;
  return (
    <Row
      gutter={16}
      align="middle"
      data-testid={`license-measure-${path}`}
      data-granted={granted ?? 'unlimited'}
      data-allocated={allocated}
      data-used={used}
      style={{ marginBottom: 8 }}
    >
      <Col xs={24} md={5}>
        {translateMessage(`grant.label.${path}`)}
      </Col>
      <Col xs={24} md={9}>
        {granted === undefined ? (
          <Typography.Text type="secondary">{t('dashboard.unlimited')}</Typography.Text>
        ) : (
          <Progress
            size="small"
            aria-label={translateMessage(`grant.label.${path}`)}
            showInfo={false}
            percent={percent(allocated, granted)}
            success={{ percent: percent(used, granted) }}
            status={over ? 'exception' : 'normal'}
          />
        )}
      </Col>
      <Col xs={24} md={10}>
        <Typography.Text type="secondary">
          {/* An unlimited measure says 不限 once, in the bar's place (issue 32). */}
          {granted === undefined
            ? t('licence.usageNumbersUnlimited', { used: used.toLocaleString(), allocated: allocated.toLocaleString() })
            : t('licence.usageNumbers', {
                used: used.toLocaleString(),
                allocated: allocated.toLocaleString(),
                granted: granted.toLocaleString(),
              })}
        </Typography.Text>
      </Col>
    </Row>
  );
}

/**
 * Every measure of the licence: the blue bar is what is allocated (to tenants and platform
 * projects), its green part what projects report as used, both as shares of the granted amount.
 */
export function UsageBars({ info }: { info: LicenceInfo }) {
  return (
    <div data-testid="license-usage">
      {MEASURES.map(({ path }) => (
        <UsageRow key={path} info={info} path={path} />
      ))}
    </div>
  );
}

import { QuestionCircleOutlined } from '@ant-design/icons';
import { FEATURE_KEYS, visibleSections } from '@gantry/shared';
import { Badge, Card, Col, Row, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import i18n, { translateMessage } from '../../../i18n';

/** The short help of a feature, when there is one (`licence.featureHelp.<key>`). */
function featureHelp(key: string): string | null {
  const id = `licence.featureHelp.${key}`;
  return i18n.exists(id) ? translateMessage(id) : null;
}

function FeatureCard({ feature, available }: { feature: string; available: boolean }) {
  const { t } = useTranslation();
  const help = featureHelp(feature);
  return (
    <Card
      size="small"
      data-testid={`feature-card-${feature}`}
      data-available={available ? 'true' : 'false'}
      style={{ height: '100%' }}
    >
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Space size={6}>
          <Typography.Text strong>{translateMessage(`grant.feature.${feature}`)}</Typography.Text>
          {help ? (
            <Tooltip title={help}>
              <QuestionCircleOutlined data-testid={`feature-card-${feature}-help`} aria-label={help} />
            </Tooltip>
          ) : null}
        </Space>
        <Badge
          status={available ? 'success' : 'default'}
          text={
            <span data-testid={`feature-card-${feature}-badge`}>
              {available ? t('licence.available') : t('licence.unavailable')}
            </span>
          }
        />
      </Space>
    </Card>
  );
}

/**
 * The value-added services (console.md §2): the sections of `visibleSections(catalogue)`, each a
 * grid of feature cards (three columns from lg, one below), available when `features` has the key.
 * Sections without items do not appear.
 */
export function FeatureSections({
  features,
  catalogue = FEATURE_KEYS,
}: {
  features: readonly string[];
  catalogue?: readonly string[];
}) {
  const usable = new Set(features);
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {visibleSections(catalogue).map((section) => (
        <Card
          key={section.key}
          title={translateMessage(`licence.section.${section.key}`)}
          data-testid={`feature-section-${section.key}`}
        >
          <Row gutter={[16, 16]}>
            {section.features.map((feature) => (
              <Col key={feature} xs={24} lg={8} data-testid={`feature-col-${feature}`}>
                <FeatureCard feature={feature} available={usable.has(feature)} />
              </Col>
            ))}
          </Row>
        </Card>
      ))}
    </Space>
  );
}

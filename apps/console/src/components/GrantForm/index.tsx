import { effectiveFeatures, FEATURE_KEYS, localDate, MEASURES, remainingDays } from '@gantry/shared';
import { Checkbox, Col, DatePicker, Form, InputNumber, Row, Tooltip, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';
import type { UnusedLicence } from '../../services/licence';
import {
  defaultDashboardCount,
  GRANT_FIELDS,
  type GrantField,
  grantFieldMessage,
  REQUIRED_GRANT_FIELDS,
  startDateBounds,
  startDateDisabled,
} from './grantRules';

export type { UnusedLicence } from '../../services/licence';

export interface GrantFormProps {
  /** The form field holding the grant object, e.g. 'grant'. */
  name: string;
  /** The pool the grant draws from (useUnusedLicence); undefined while loading. */
  pool: UnusedLicence | undefined;
  /** The stored start of the grant being edited; absent for a new grant (defaults: today, 30 screens). */
  previousStart?: string;
  /** Whose licence the grant comes from, for the wording; the pool's parentKind when omitted. */
  parentLabel?: 'platform' | 'tenant';
}

/** data-testid of a grant field: `grant-userCount`, `grant-flow-tableCount`, … */
export const grantTestId = (field: string) => `grant-${field.replace(/\./g, '-')}`;

const COL = { xs: 24, md: 12, xl: 8 };

/**
 * A licence grant inside an antd Form (console.md §5, licence form): validity, start, the measures
 * and the features, each checked by the shared rules against the parent pool, with what is still
 * available shown under each measure.
 */
export default function GrantForm({ name, pool, previousStart, parentLabel }: GrantFormProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const today = useMemo(() => localDate(new Date()), []);
  const isNew = previousStart === undefined;
  const parent = pool?.parent ?? null;
  const kind = parentLabel ?? pool?.parentKind ?? 'platform';
  const path = (field: GrantField) => [name, ...field.split('.')];

  const rule = (field: GrantField): Rule => ({
    validator: async () => {
      const message = grantFieldMessage(
        form.getFieldValue(name),
        field,
        { pool, previousStart, today },
        currentLanguage(),
      );
      if (message) throw new Error(message);
    },
  });

  // a new pool (another owner, or the first answer) re-checks what the user already typed
  useEffect(() => {
    if (!pool) return;
    const touched = GRANT_FIELDS.map((f) => [name, ...f.split('.')]).filter((p) => form.isFieldTouched(p));
    if (touched.length > 0) form.validateFields(touched).catch(() => undefined);
  }, [pool, form, name]);

  // A new grant's screen count follows the pool until the user types one: never more than the parent has left.
  const screens = defaultDashboardCount(pool);
  useEffect(() => {
    if (!isNew || !pool) return;
    const field = [name, 'visual', 'dashboardCount'];
    // still the user's to type: set without marking the field touched
    if (!form.isFieldTouched(field)) form.setFields([{ name: field, value: screens ?? null, touched: false }]);
  }, [isNew, pool, screens, form, name]);

  const bounds = startDateBounds(pool, today);
  const allowed = parent ? effectiveFeatures(parent.features) : null;
  const parentDays = parent ? remainingDays(parent, pool?.today ?? today) : null;

  const available = (field: string) => {
    if (!pool || !parent) return undefined;
    const value = pool.available[field as keyof typeof pool.available];
    return (
      <span data-testid={`${grantTestId(field)}-available`}>
        {value === undefined
          ? t('grant.availableUnlimited')
          : t('grant.available', { value: Math.max(0, value).toLocaleString() })}
      </span>
    );
  };

  return (
    <div data-testid="grant-form">
      <Typography.Paragraph type="secondary" data-testid="grant-parent">
        {kind === 'tenant' ? t('grant.withinTenant') : t('grant.withinPlatform')}
        {parent
          ? ` ${t('grant.parentPeriod', { start: parent.startTime, end: bounds.max ?? '', days: parentDays ?? 0 })}`
          : null}
        {pool && !parent ? ` ${t('grant.noParent')}` : null}
      </Typography.Paragraph>
      <Row gutter={16}>
        <Col {...COL}>
          <Form.Item
            name={path('validityPeriod')}
            label={t('grant.label.validityPeriod')}
            required
            rules={[rule('validityPeriod')]}
            dependencies={[path('startTime')]}
            extra={parentDays === null ? undefined : t('grant.availableDays', { days: parentDays })}
          >
            <InputNumber<number>
              data-testid={grantTestId('validityPeriod')}
              step={1}
              suffix={t('unit.d')}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
        <Col {...COL}>
          <Form.Item
            name={path('startTime')}
            label={t('grant.label.startTime')}
            required
            rules={[rule('startTime')]}
            initialValue={isNew ? today : undefined}
            getValueProps={(value: unknown) => ({ value: typeof value === 'string' && value ? dayjs(value) : null })}
            normalize={(value: Dayjs | null) => (value ? value.format('YYYY-MM-DD') : undefined)}
          >
            <DatePicker
              data-testid={grantTestId('startTime')}
              style={{ width: '100%' }}
              disabledDate={(date: Dayjs) => startDateDisabled(date.format('YYYY-MM-DD'), bounds)}
            />
          </Form.Item>
        </Col>
        {MEASURES.map((measure) => (
          <Col {...COL} key={measure.path}>
            <Form.Item
              name={path(measure.path)}
              label={t(`grant.label.${measure.path}`)}
              required={REQUIRED_GRANT_FIELDS.includes(measure.path)}
              rules={[rule(measure.path)]}
              initialValue={isNew && measure.path === 'visual.dashboardCount' ? screens : undefined}
              extra={available(measure.path)}
            >
              <InputNumber<number>
                data-testid={grantTestId(measure.path)}
                step={1}
                placeholder={measure.required ? undefined : t('grant.unlimited')}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
        ))}
      </Row>
      <Form.Item
        name={path('features')}
        label={t('grant.features')}
        rules={[rule('features')]}
        initialValue={isNew ? [] : undefined}
      >
        <Checkbox.Group data-testid="grant-features">
          <Row gutter={[8, 4]}>
            {FEATURE_KEYS.map((key) => {
              const missing = allowed !== null && !allowed.has(key);
              const box = (
                <Checkbox value={key} disabled={missing} data-testid={`grant-feature-${key}`}>
                  {t(`grant.feature.${key}`)}
                </Checkbox>
              );
              return (
                <Col key={key} xs={12} md={8} xl={6}>
                  {missing ? <Tooltip title={t('grant.featureMissing')}>{box}</Tooltip> : box}
                </Col>
              );
            })}
          </Row>
        </Checkbox.Group>
      </Form.Item>
    </div>
  );
}

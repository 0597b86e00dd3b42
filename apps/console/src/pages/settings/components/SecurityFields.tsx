import { CAPTCHA_MODES, FREEZE_UNITS, LOGIN_DURATION_UNITS, normalizeLoginDuration } from '@gantry/shared';
import type { FormRule } from 'antd';
import { Form, InputNumber, Radio, Switch } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { DurationInput } from '../../../components/DurationInput';

/** Count of a duration: a whole number of at least 1. */
function durationRules(t: TFunction): FormRule[] {
  return [
    {
      validator: (_rule, value: { count?: number | null } | undefined) =>
        typeof value?.count === 'number' && Number.isInteger(value.count) && value.count >= 1
          ? Promise.resolve()
          : Promise.reject(new Error(t('settings.countMin1'))),
    },
  ];
}

/** Login security policy: wrong-password limit, freeze duration, login duration, verification code. */
export function SecurityFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name={['errorLogin', 'count']}
        label={t('settings.errorCount')}
        extra={t('settings.errorCountHelp')}
        rules={[{ type: 'integer', min: 0, message: t('settings.countMin0') }]}
      >
        <InputNumber<number> data-testid="settings-error-count" min={0} precision={0} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name={['errorLogin', 'duration']} label={t('settings.freezeDuration')} rules={durationRules(t)}>
        <DurationInput units={FREEZE_UNITS} testId="settings-freeze" />
      </Form.Item>
      <Form.Item
        name="loginDuration"
        label={t('settings.loginDuration')}
        extra={t('settings.loginDurationHelp')}
        rules={durationRules(t)}
      >
        <DurationInput
          units={LOGIN_DURATION_UNITS}
          normalize={normalizeLoginDuration}
          testId="settings-login-duration"
        />
      </Form.Item>
      <Form.Item name="captcha" label={t('settings.captchaMode')}>
        <Radio.Group
          data-testid="settings-captcha"
          options={CAPTCHA_MODES.map((mode) => ({ value: mode, label: t(`settings.captcha.${mode}`) }))}
        />
      </Form.Item>
      <Form.Item
        name={['twoFactor', 'admin']}
        label={t('settings.twoFactorAdmin')}
        extra={t('settings.twoFactorHelp')}
        valuePropName="checked"
      >
        <Switch data-testid="settings-two-factor-admin" />
      </Form.Item>
      <Form.Item name={['twoFactor', 'tenants']} label={t('settings.twoFactorTenants')} valuePropName="checked">
        <Switch data-testid="settings-two-factor-tenants" />
      </Form.Item>
    </>
  );
}

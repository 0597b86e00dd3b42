import type { TotpSetupResponse } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Input, QRCode, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmTotp, fetchTotpStatus, startTotpSetup, turnTotpOff } from '../../services/accountSecurity';
import { toast } from '../../services/feedback';
import { isRequestError } from '../../services/request';
import { RecoveryCodes } from './RecoveryCodes';

const STATUS_KEY = ['totp-status'];

const fieldError = (error: unknown, field: string) =>
  isRequestError(error) ? (error.fields?.[field] ?? error.message) : String(error);

/** Two-factor sign-in in the personal centre: turn it on (QR code, a code, recovery codes) or off. */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: status } = useQuery({ queryKey: STATUS_KEY, queryFn: fetchTotpStatus });
  const [setup, setSetup] = useState<TotpSetupResponse>();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [codes, setCodes] = useState<string[]>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: STATUS_KEY });

  const confirm = async () => {
    try {
      setCodes((await confirmTotp(code.trim())).recoveryCodes);
      setSetup(undefined);
      setCode('');
      setError(undefined);
      await refresh();
    } catch (caught) {
      setError(fieldError(caught, 'code'));
    }
  };
  const off = async () => {
    try {
      toast.success((await turnTotpOff(password)).message);
      setPassword('');
      setError(undefined);
      setCodes(undefined);
      await refresh();
    } catch (caught) {
      setError(fieldError(caught, 'password'));
    }
  };

  return (
    <Card
      title={t('twoFactor.title')}
      style={{ maxWidth: 640, marginTop: 16 }}
      extra={
        status ? (
          <Tag color={status.enabled ? 'green' : 'default'} data-testid="two-factor-state">
            {status.enabled ? t('twoFactor.on') : t('twoFactor.off')}
          </Tag>
        ) : null
      }
    >
      <p>{t('twoFactor.description')}</p>
      {status?.required && !status.enabled ? <Alert type="warning" title={t('twoFactor.requiredHint')} /> : null}
      {codes ? <RecoveryCodes codes={codes} /> : null}
      {status && !status.enabled && !setup ? (
        <Button
          type="primary"
          data-testid="two-factor-start"
          onClick={() => startTotpSetup().then(setSetup, (caught: unknown) => setError(fieldError(caught, 'code')))}
        >
          {t('twoFactor.turnOn')}
        </Button>
      ) : null}
      {setup ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          <p>{t('twoFactor.scan')}</p>
          <QRCode value={setup.uri} data-testid="two-factor-qr" />
          <span>
            {t('twoFactor.secret')}: <code data-testid="two-factor-secret">{setup.secret}</code>
          </span>
          <Space>
            <Input
              data-testid="two-factor-code"
              placeholder={t('twoFactor.codePlaceholder')}
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              status={error ? 'error' : undefined}
            />
            <Button type="primary" data-testid="two-factor-confirm" onClick={() => void confirm()}>
              {t('twoFactor.confirm')}
            </Button>
          </Space>
        </Space>
      ) : null}
      {status?.enabled ? (
        <Space direction="vertical">
          <span data-testid="two-factor-codes-left">
            {t('twoFactor.recoveryCodesLeft', { count: status.recoveryCodesLeft })}
          </span>
          {status.required ? null : (
            <Space>
              <Input.Password
                data-testid="two-factor-password"
                placeholder={t('twoFactor.passwordPlaceholder')}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                status={error ? 'error' : undefined}
              />
              <Button danger data-testid="two-factor-off" disabled={!password} onClick={() => void off()}>
                {t('twoFactor.turnOff')}
              </Button>
            </Space>
          )}
        </Space>
      ) : null}
      {error ? (
        <div role="alert" data-testid="two-factor-error" style={{ color: '#ff4d4f', marginTop: 8 }}>
          {error}
        </div>
      ) : null}
    </Card>
  );
}

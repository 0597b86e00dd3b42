import type { LicenceCheck } from '@gantry/shared';
import type { UseMutationResult } from '@tanstack/react-query';
import { Alert, Button, Divider, Result, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LicenceChangesView } from '../components/LicenceChangesView';
import { LicenceSummaryView } from '../components/LicenceSummaryView';
import { refusalText } from './useLicenceWizard';

interface VerifyStepProps {
  verify: UseMutationResult<LicenceCheck, unknown, File>;
  onChooseAgain: () => void;
  onBack: () => void;
  onApply: () => void;
}

/** The verification's answer: the file's summary and what applying it changes, or the refusal. */
export function VerifyStep({ verify, onChooseAgain, onBack, onApply }: VerifyStepProps) {
  const { t } = useTranslation();
  if (verify.isError) {
    return (
      <Result
        status="error"
        data-testid="license-wizard-refused"
        title={t('licence.wizard.refused')}
        subTitle={<span data-testid="license-wizard-refusal">{refusalText(verify.error)}</span>}
        extra={
          <Button type="primary" data-testid="license-wizard-choose-again" onClick={onChooseAgain}>
            {t('licence.wizard.chooseAgain')}
          </Button>
        }
      />
    );
  }
  if (!verify.data) {
    return (
      <div data-testid="license-wizard-verifying" style={{ textAlign: 'center', padding: 48 }}>
        <Spin />
        <Typography.Paragraph style={{ marginTop: 12 }}>{t('licence.wizard.verifying')}</Typography.Paragraph>
      </div>
    );
  }
  const { licence, changes } = verify.data;
  return (
    <div data-testid="license-wizard-verified">
      <Alert type="success" showIcon title={t('licence.wizard.verified')} style={{ marginBottom: 16 }} />
      <Typography.Title level={5}>{t('licence.wizard.summary')}</Typography.Title>
      <LicenceSummaryView licence={licence} />
      <Divider />
      <Typography.Title level={5}>{t('licence.wizard.changes')}</Typography.Title>
      <LicenceChangesView changes={changes} />
      <Space style={{ marginTop: 24 }}>
        <Button data-testid="license-wizard-back" onClick={onBack}>
          {t('licence.wizard.back')}
        </Button>
        <Button type="primary" data-testid="license-wizard-apply" onClick={onApply}>
          {t('licence.wizard.apply')}
        </Button>
      </Space>
    </div>
  );
}

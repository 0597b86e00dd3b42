import { Button, Card, Space, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MachineCode } from '../components/MachineCode';
import { FileStep } from './FileStep';
import { ResultStep } from './ResultStep';
import { useLicenceWizard, WIZARD_STEPS } from './useLicenceWizard';
import { VerifyStep } from './VerifyStep';

/**
 * /app/license/upload (administrator): machine code → choose the file → verification (POST
 * license/verify, nothing changes) → result (POST license/upload after the administrator confirms).
 */
export default function LicenceUploadPage() {
  const { t } = useTranslation();
  const wizard = useLicenceWizard();
  const current = WIZARD_STEPS.indexOf(wizard.step);
  return (
    <Card title={t('licence.uploadTitle')}>
      <Steps
        current={current}
        data-testid="license-wizard-steps"
        data-step={wizard.step}
        style={{ marginBottom: 24 }}
        items={WIZARD_STEPS.map((step) => ({ title: t(`licence.wizard.${step}`) }))}
      />
      {wizard.step === 'machine' ? (
        <div data-testid="license-wizard-step-machine">
          <Typography.Paragraph>{t('licence.wizard.machineHelp')}</Typography.Paragraph>
          <MachineCode testId="license-wizard-machine-code" />
          <div style={{ marginTop: 24 }}>
            <Button type="primary" data-testid="license-wizard-next" onClick={() => wizard.goTo('file')}>
              {t('licence.wizard.next')}
            </Button>
          </div>
        </div>
      ) : null}
      {wizard.step === 'file' ? (
        <>
          <FileStep file={wizard.file} onChoose={wizard.choose} />
          <Space style={{ marginTop: 24 }}>
            <Button data-testid="license-wizard-back" onClick={() => wizard.goTo('machine')}>
              {t('licence.wizard.back')}
            </Button>
            <Button
              type="primary"
              data-testid="license-wizard-verify"
              disabled={!wizard.file}
              onClick={wizard.startVerify}
            >
              {t('licence.wizard.verifyButton')}
            </Button>
          </Space>
        </>
      ) : null}
      {wizard.step === 'verify' ? (
        <div data-testid="license-wizard-step-verify">
          <VerifyStep
            verify={wizard.verify}
            onChooseAgain={wizard.chooseAgain}
            onBack={() => wizard.goTo('file')}
            onApply={wizard.confirm}
          />
        </div>
      ) : null}
      {wizard.step === 'result' ? (
        <div data-testid="license-wizard-step-result">
          <ResultStep apply={wizard.apply} onChooseAgain={wizard.chooseAgain} />
        </div>
      ) : null}
    </Card>
  );
}

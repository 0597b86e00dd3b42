import type { LicenceCheck } from '@gantry/shared';
import type { UseMutationResult } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../../app/paths';
import { LicenceChangesView } from '../components/LicenceChangesView';
import { refusalText } from './useLicenceWizard';

/** After the administrator confirmed: what was applied, or why the server refused it after all. */
export function ResultStep({
  apply,
  onChooseAgain,
}: {
  apply: UseMutationResult<LicenceCheck, unknown, File>;
  onChooseAgain: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const back = (
    <Button key="back" type="primary" data-testid="license-wizard-done" onClick={() => void navigate(PATHS.licence)}>
      {t('licence.wizard.toLicence')}
    </Button>
  );
  if (apply.isError) {
    return (
      <Result
        status="error"
        data-testid="license-wizard-apply-failed"
        title={t('licence.wizard.applyFailed')}
        subTitle={<span data-testid="license-wizard-refusal">{refusalText(apply.error)}</span>}
        extra={[
          <Button key="again" data-testid="license-wizard-choose-again" onClick={onChooseAgain}>
            {t('licence.wizard.chooseAgain')}
          </Button>,
          back,
        ]}
      />
    );
  }
  if (!apply.data) {
    return (
      <div data-testid="license-wizard-applying" style={{ textAlign: 'center', padding: 48 }}>
        <Spin />
      </div>
    );
  }
  return (
    <Result
      status="success"
      data-testid="license-wizard-result"
      title={t('licence.wizard.applied')}
      subTitle={apply.data.licence.licenceId}
      extra={[back]}
    >
      <LicenceChangesView changes={apply.data.changes} />
    </Result>
  );
}

import { LICENCE_REMINDER_DAYS, type LicenceInfo } from '@gantry/shared';
import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { licenceProblem } from '.';

/**
 * The two licence warnings (also used by the layout's banner): an error while the licence grants
 * nothing (with the reason), else a reminder while fewer than LICENCE_REMINDER_DAYS remain.
 */
export function licenceAlert(info: LicenceInfo): 'invalid' | 'reminder' | null {
  if (info.state !== 'valid') return 'invalid';
  return info.reminder ? 'reminder' : null;
}

interface LicenceAlertProps {
  info: LicenceInfo;
  testIdPrefix: string;
  action?: ReactNode;
  /** Only the reminder can be closed. */
  onCloseReminder?: () => void;
}

export function LicenceAlert({ info, testIdPrefix, action, onCloseReminder }: LicenceAlertProps) {
  const { t } = useTranslation();
  const kind = licenceAlert(info);
  if (kind === 'invalid') {
    return (
      <Alert
        type="error"
        showIcon
        data-testid={`${testIdPrefix}-invalid`}
        data-state={info.state}
        title={t('licence.invalid', { state: t(`licence.state.${info.state}`), reason: licenceProblem(info, t) })}
        action={action}
      />
    );
  }
  if (kind === 'reminder') {
    return (
      <Alert
        type="warning"
        showIcon
        data-testid={`${testIdPrefix}-reminder`}
        title={t('licence.reminder', { days: info.remainingDays, limit: LICENCE_REMINDER_DAYS })}
        action={action}
        closable={onCloseReminder ? { onClose: onCloseReminder } : undefined}
      />
    );
  }
  return null;
}

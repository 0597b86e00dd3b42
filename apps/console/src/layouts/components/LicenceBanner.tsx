import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { PATHS } from '../../app/paths';
import { LicenceAlert, licenceAlert } from '../../components/LicenceStatus/LicenceAlert';
import { useLicenceInfo } from '../../services/licence';

/** sessionStorage: the licence id whose reminder was closed (a new licence reminds again). */
export const REMINDER_DISMISSED_KEY = 'gantry.licenceReminderDismissed';

function readDismissed(): string | null {
  try {
    return sessionStorage.getItem(REMINDER_DISMISSED_KEY);
  } catch {
    return null;
  }
}

/**
 * Administrators only: a warning while fewer than LICENCE_REMINDER_DAYS remain (closable for the
 * browser session) and an error while the licence grants nothing (expired, another machine, …),
 * both linking to the licence page. Not shown on the licence pages themselves, which say the same.
 */
export function LicenceBanner() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { data: info } = useLicenceInfo();
  const [dismissed, setDismissed] = useState(readDismissed);
  const licencePath = PATHS.licence;
  if (!info || pathname === licencePath || pathname.startsWith(`${licencePath}/`)) return null;
  const kind = licenceAlert(info);
  if (kind === null || (kind === 'reminder' && dismissed === info.licenceId)) return null;

  const dismiss = () => {
    try {
      sessionStorage.setItem(REMINDER_DISMISSED_KEY, info.licenceId);
    } catch {
      // storage unavailable: closed until the next page load
    }
    setDismissed(info.licenceId);
  };
  return (
    <div style={{ marginBottom: 16 }}>
      <LicenceAlert
        info={info}
        testIdPrefix="licence-banner"
        onCloseReminder={dismiss}
        action={
          <Button size="small" type="link" data-testid="licence-banner-link" onClick={() => void navigate(licencePath)}>
            {t('licence.viewLicence')}
          </Button>
        }
      />
    </div>
  );
}

import { useTranslation } from 'react-i18next';

/** The ten recovery codes, shown once: the user keeps them somewhere safe. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  return (
    <div data-testid="recovery-codes">
      <p style={{ fontWeight: 600 }}>{t('twoFactor.recoveryCodesTitle')}</p>
      <p>{t('twoFactor.recoveryCodesHint')}</p>
      <ol style={{ fontFamily: 'monospace', columns: 2 }}>
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
    </div>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PRIMARY_COLOUR } from '../../app/theme';

interface ErrorToastProps {
  message: string;
  code: string | undefined;
  status: number;
  path: string;
}

/** The body of an error toast: the message, and a link revealing code, status and path. */
export function ErrorToast({ message, code, status, path }: ErrorToastProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <span data-testid="error-toast">
      <span>{message}</span>{' '}
      <button
        type="button"
        onClick={() => setOpen((v) => !v)}
        style={{ border: 0, background: 'none', padding: 0, color: PRIMARY_COLOUR, cursor: 'pointer' }}
      >
        {open ? t('request.hideDetails') : t('request.showDetails')}
      </button>
      {open ? (
        <span style={{ display: 'block', textAlign: 'left', fontSize: 12, color: 'rgba(0,0,0,0.65)' }}>
          {t('request.detailCode')}: {code ?? '-'}
          <br />
          {t('request.detailStatus')}: {status}
          <br />
          {t('request.detailPath')}: {path}
        </span>
      ) : null}
    </span>
  );
}

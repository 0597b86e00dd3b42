import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** An eye (crossed out while the password is hidden), drawn inline: the login route loads no icon package. */
function EyeIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden>
      <path d="M2 12c2.5-4.5 6-6.5 10-6.5s7.5 2 10 6.5c-2.5 4.5-6 6.5-10 6.5S4.5 16.5 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {open ? null : <path d="M4 20 20 4" />}
    </svg>
  );
}

/** A password field with a show/hide button, like antd's Input.Password. */
export function PasswordInput({
  id,
  value,
  invalid,
  onChange,
}: {
  id: string;
  value: string;
  invalid: boolean;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <span className="gantry-login-password">
      <input
        id={id}
        data-testid={id}
        className="gantry-login-input"
        type={visible ? 'text' : 'password'}
        aria-invalid={invalid || undefined}
        autoComplete="current-password"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <button
        type="button"
        className="gantry-login-eye"
        aria-label={t(visible ? 'login.hidePassword' : 'login.showPassword')}
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
      >
        <EyeIcon open={visible} />
      </button>
    </span>
  );
}

import { useTranslation } from 'react-i18next';

/** The verification-code SVG as an image; clicking asks for a new one. */
export function CaptchaImage({ svg, onRefresh }: { svg: string; onRefresh: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      onClick={onRefresh}
      title={t('login.codeImage')}
      style={{
        border: '1px solid #d9d9d9',
        borderRadius: 6,
        padding: 0,
        background: '#fff',
        cursor: 'pointer',
        height: 40,
      }}
    >
      <img
        data-testid="login-captcha"
        src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`}
        alt={t('login.codeImage')}
        style={{ height: 38, width: 110, display: 'block' }}
      />
    </button>
  );
}

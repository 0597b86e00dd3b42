import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../../services/settings';

const FALLBACK_BACKGROUND = 'linear-gradient(135deg, #0f2b5b 0%, #1d4f91 45%, #3aa0d8 100%)';

/** The public pages' frame: background image from settings, logo and name, a card, copyright. */
export function AuthShell({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  const backgroundImage = settings?.backgroundImage
    ? `url(${JSON.stringify(settings.backgroundImage)}), ${FALLBACK_BACKGROUND}`
    : FALLBACK_BACKGROUND;
  const name = settings?.name || t('app.defaultName');
  return (
    <div
      data-testid="auth-shell"
      data-background={settings?.backgroundImage || undefined}
      style={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        backgroundImage,
        backgroundSize: 'cover',
        backgroundPosition: 'center',
        boxSizing: 'border-box',
      }}
    >
      <main style={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16 }}>
        <div
          style={{
            width: '100%',
            maxWidth: 380,
            background: 'rgba(255,255,255,0.96)',
            borderRadius: 12,
            boxShadow: '0 12px 40px rgba(0,0,0,0.25)',
            padding: '32px 32px 16px',
            boxSizing: 'border-box',
          }}
        >
          <div style={{ display: 'flex', alignItems: 'center', gap: 12, justifyContent: 'center', marginBottom: 8 }}>
            {settings?.logo ? <img src={settings.logo} alt="" style={{ height: 40, maxWidth: 120 }} /> : null}
            <span data-testid="product-name" style={{ fontSize: 22, fontWeight: 600 }}>
              {name}
            </span>
          </div>
          <h1
            style={{
              textAlign: 'center',
              fontSize: 16,
              fontWeight: 400,
              color: 'rgba(0,0,0,0.55)',
              margin: '0 0 24px',
            }}
          >
            {title}
          </h1>
          {children}
        </div>
      </main>
      {settings?.copyright ? (
        <footer data-testid="copyright" style={{ textAlign: 'center', color: 'rgba(255,255,255,0.85)', padding: 16 }}>
          {settings.copyright}
        </footer>
      ) : null}
    </div>
  );
}

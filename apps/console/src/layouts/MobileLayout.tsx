import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { PATHS } from '../app/paths';
import { RouteGuard } from '../app/RouteGuard';
import { PRIMARY_COLOUR } from '../app/theme';
import { EvaluationBanner } from '../components/EvaluationBanner';
import { LazyTaskNotifications } from '../components/TaskNotifications/lazy';
import { commonMenu } from '../routes';
import { HeaderTitle } from './components/HeaderTitle';
import { LicenceBanner } from './components/LicenceBanner';
import { MENU_ICONS } from './components/menuIcons';
import { UserMenu } from './components/UserMenu';

/** The bottom tab bar's height (styles.css lifts sticky table scrollbars above it: keep the two equal). */
const TAB_BAR_HEIGHT = 56;

/** Small screens: top bar, content, and bottom tabs with the menu entries marked common. */
export function MobileLayout({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tabs = commonMenu(isAdmin);

  return (
    <div
      data-testid="mobile-layout"
      className="gantry-mobile"
      style={{ minHeight: '100vh', paddingBottom: TAB_BAR_HEIGHT, boxSizing: 'border-box' }}
    >
      <header
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 10,
          height: 48,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          padding: '0 12px',
          background: '#001529',
        }}
      >
        <HeaderTitle color="#fff" />
        <UserMenu color="#fff" compact />
      </header>
      <main style={{ padding: 12 }}>
        <EvaluationBanner />
        <LazyTaskNotifications />
        {isAdmin ? <LicenceBanner /> : null}
        <RouteGuard />
      </main>
      <nav
        style={{
          position: 'fixed',
          left: 0,
          right: 0,
          bottom: 0,
          height: TAB_BAR_HEIGHT,
          display: 'flex',
          background: '#fff',
          borderTop: '1px solid #f0f0f0',
          zIndex: 10,
        }}
      >
        {tabs.map((tab) => {
          const path = tab.page ? PATHS[tab.page] : '';
          const active = pathname === path || pathname.startsWith(`${path}/`);
          return (
            <button
              key={tab.key}
              type="button"
              data-testid={`tab-${tab.key}`}
              onClick={() => void navigate(path)}
              style={{
                flex: 1,
                border: 0,
                background: 'none',
                display: 'flex',
                flexDirection: 'column',
                alignItems: 'center',
                justifyContent: 'center',
                gap: 2,
                fontSize: 12,
                color: active ? PRIMARY_COLOUR : 'rgba(0,0,0,0.65)',
                cursor: 'pointer',
              }}
            >
              <span style={{ fontSize: 20 }}>{tab.icon ? MENU_ICONS[tab.icon] : null}</span>
              {t(tab.title)}
            </button>
          );
        })}
      </nav>
    </div>
  );
}

import { SIDEBAR_COLLAPSED_WIDTH } from '@gantry/shared';
import { Layout, Menu } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { RouteGuard, usePageRoute } from '../app/RouteGuard';
import { EvaluationBanner } from '../components/EvaluationBanner';
import { LazyTaskNotifications } from '../components/TaskNotifications/lazy';
import { ADMIN_MENU } from '../routes';
import { HeaderTitle } from './components/HeaderTitle';
import { LicenceBanner } from './components/LicenceBanner';
import { selectedMenu, toMenuItems } from './components/menuItems';
import { UserMenu } from './components/UserMenu';

export const COLLAPSED_KEY = 'gantry.sidebarCollapsed';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(COLLAPSED_KEY) === '1';
  } catch {
    return false;
  }
}

/** Platform administrator: collapsible sidebar (state persisted), header with title and user menu. */
export function AdminLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const items = useMemo(() => toMenuItems(ADMIN_MENU, t), [t]);
  const { selected, open } = selectedMenu(ADMIN_MENU, pathname);
  const [openKeys, setOpenKeys] = useState<string[]>(open);
  // A sub-page reached by its address (the hash changes, the layout stays) opens its submenu too.
  const openNow = open.join('\n');
  useEffect(() => {
    if (!openNow) return;
    setOpenKeys((keys) => [...new Set([...keys, ...openNow.split('\n')])]);
  }, [openNow]);
  const page = usePageRoute();

  const onCollapse = (value: boolean) => {
    setCollapsed(value);
    try {
      localStorage.setItem(COLLAPSED_KEY, value ? '1' : '0');
    } catch {
      // ignore
    }
  };

  return (
    <Layout style={{ minHeight: '100vh' }} data-testid="admin-layout">
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        onCollapse={onCollapse}
        collapsedWidth={SIDEBAR_COLLAPSED_WIDTH}
        width={220}
        data-testid="sider"
        data-collapsed={collapsed ? 'true' : 'false'}
        style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
      >
        <div style={{ height: 64, display: 'flex', alignItems: 'center', padding: '0 24px' }}>
          <HeaderTitle color="#fff" showName={!collapsed} />
        </div>
        <Menu
          theme="dark"
          mode="inline"
          items={items}
          selectedKeys={selected}
          openKeys={collapsed ? undefined : openKeys}
          onOpenChange={setOpenKeys}
          onClick={({ key }) => {
            if (key.startsWith('/')) void navigate(key);
          }}
        />
      </Layout.Sider>
      {/* min-width 0: a page wider than the window (the 1,200 px services page) scrolls inside the
          content area, and the header stays as wide as the window (issue 10). */}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          style={{
            background: '#fff',
            padding: '0 16px',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            boxShadow: '0 1px 4px rgba(0,21,41,0.08)',
          }}
        >
          <span data-testid="page-title" style={{ fontSize: 16, fontWeight: 500 }}>
            {page ? t(page.title) : null}
          </span>
          <UserMenu />
        </Layout.Header>
        <Layout.Content style={{ margin: 16, minWidth: 0 }}>
          <EvaluationBanner />
          <LazyTaskNotifications />
          <LicenceBanner />
          <RouteGuard />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

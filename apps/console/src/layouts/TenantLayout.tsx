import { LogoutOutlined } from '@ant-design/icons';
import { Layout, Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { RouteGuard } from '../app/RouteGuard';
import { EvaluationBanner } from '../components/EvaluationBanner';
import { LazyTaskNotifications } from '../components/TaskNotifications/lazy';
import { TENANT_MENU } from '../routes';
import { HeaderTitle } from './components/HeaderTitle';
import { selectedMenu, toMenuItems } from './components/menuItems';
import { UserMenu } from './components/UserMenu';
import { useLogout } from './useLogout';

/** Tenant user: a top bar with My Projects, change password, personal centre and logout. */
export function TenantLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const logout = useLogout();
  const items = useMemo<MenuProps['items']>(
    () => [
      ...toMenuItems(TENANT_MENU, t),
      { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="menu-logout">{t('menu.logout')}</span> },
    ],
    [t],
  );
  const { selected } = selectedMenu(TENANT_MENU, pathname);

  return (
    <Layout style={{ minHeight: '100vh' }} data-testid="tenant-layout">
      <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 24, padding: '0 24px' }}>
        <HeaderTitle color="#fff" />
        <Menu
          theme="dark"
          mode="horizontal"
          items={items}
          selectedKeys={selected}
          style={{ flex: 1, minWidth: 0 }}
          onClick={({ key }) => {
            if (key === 'logout') void logout();
            else if (key.startsWith('/')) void navigate(key);
          }}
        />
        <UserMenu color="#fff" />
      </Layout.Header>
      <Layout.Content style={{ padding: 16, minWidth: 0 }}>
        <EvaluationBanner />
        <LazyTaskNotifications />
        <RouteGuard />
      </Layout.Content>
    </Layout>
  );
}

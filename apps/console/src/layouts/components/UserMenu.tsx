import { GlobalOutlined, LockOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { LANGUAGES, type Language } from '@gantry/shared';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../app/paths';
import { currentLanguage, pickLanguage } from '../../i18n';
import { useSessionUser } from '../../services/session';
import { useLogout } from '../useLogout';

/** Avatar and name; change password, personal centre, language, logout. */
export function UserMenu({ color = 'inherit', compact = false }: { color?: string; compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSessionUser();
  const logout = useLogout();
  const language = currentLanguage();

  const items: MenuProps['items'] = [
    {
      key: 'change-password',
      icon: <LockOutlined />,
      label: <span data-testid="menu-change-password">{t('menu.changePassword')}</span>,
    },
    {
      key: 'user-center',
      icon: <UserOutlined />,
      label: <span data-testid="menu-user-center">{t('menu.userCenter')}</span>,
    },
    {
      key: 'language',
      icon: <GlobalOutlined />,
      label: t('menu.language'),
      children: LANGUAGES.map((lng) => ({
        key: `lang:${lng}`,
        label: (
          <span data-testid={`language-${lng}`}>
            {t(`language.${lng}`)}
            {lng === language ? ' ✓' : ''}
          </span>
        ),
      })),
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="logout">{t('menu.logout')}</span> },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'change-password') void navigate(PATHS.changePassword);
    else if (key === 'user-center') void navigate(PATHS.userCenter);
    else if (key === 'logout') void logout();
    else if (key.startsWith('lang:')) pickLanguage(key.slice(5) as Language);
  };

  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <button
        type="button"
        data-testid="user-menu"
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 8,
          border: 0,
          background: 'none',
          color,
          cursor: 'pointer',
          padding: '0 4px',
          height: 40,
        }}
      >
        <Avatar size="small" icon={<UserOutlined />} style={{ background: '#1677ff' }} />
        {compact ? null : <span>{user?.name || user?.username}</span>}
      </button>
    </Dropdown>
  );
}

import {
  AppstoreOutlined,
  AuditOutlined,
  HomeOutlined,
  LockOutlined,
  QuestionCircleOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { MenuIcon } from '../../routes';

export const MENU_ICONS: Record<MenuIcon, ReactNode> = {
  home: <HomeOutlined />,
  project: <AppstoreOutlined />,
  team: <TeamOutlined />,
  licence: <SafetyCertificateOutlined />,
  setting: <SettingOutlined />,
  help: <QuestionCircleOutlined />,
  lock: <LockOutlined />,
  user: <UserOutlined />,
  audit: <AuditOutlined />,
};

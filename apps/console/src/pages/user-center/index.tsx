import { Card, Descriptions, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../services/auth';
import { formatDateTime } from '../../utils/dateTime';

// The account-security cards (QR code, tables) load after the profile shows.
const TwoFactorCard = lazy(() => import('./TwoFactorCard').then((m) => ({ default: m.TwoFactorCard })));
const ApiTokensCard = lazy(() => import('./ApiTokensCard').then((m) => ({ default: m.ApiTokensCard })));

/** Personal centre: the profile of login/current/user (read-only), two-factor sign-in, API tokens. */
export default function UserCenterPage() {
  const { t } = useTranslation();
  const { data: user, isPending } = useCurrentUser();

  return (
    <>
      <Card title={t('userCenter.title')} style={{ maxWidth: 640 }}>
        {isPending || !user ? (
          <Skeleton active />
        ) : (
          // Read-only values as text, not as inputs that look editable.
          <Descriptions column={1} bordered size="small" data-testid="user-center-profile">
            <Descriptions.Item label={t('userCenter.id')}>
              <span data-testid="user-id">{user.id}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('userCenter.username')}>
              <span data-testid="user-username">{user.username}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('userCenter.name')}>
              <span data-testid="user-name">{user.name}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('userCenter.userId')}>
              <span data-testid="user-userId">{user.userId}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('userCenter.isAdmin')}>
              <span data-testid="user-isAdmin">{t(user.isAdmin ? 'common.yes' : 'common.no')}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('userCenter.expiresAt')}>
              <span data-testid="user-expiresAt">{formatDateTime(user.expiresAt)}</span>
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Suspense fallback={<Skeleton active />}>
        <TwoFactorCard />
        {user ? <ApiTokensCard isAdmin={user.isAdmin} /> : null}
      </Suspense>
    </>
  );
}

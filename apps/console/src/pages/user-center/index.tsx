import { Card, Form, Input, Skeleton, Switch } from 'antd';
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
          // Read-only values shown as text: borderless read-only inputs (selectable, nothing that looks
          // editable), the same antd parts as before, so no route's antd chunks are split anew.
          <Form layout="vertical" initialValues={user} data-testid="user-center-form">
            <Form.Item name="id" label={t('userCenter.id')}>
              <Input readOnly variant="borderless" data-testid="user-id" />
            </Form.Item>
            <Form.Item name="username" label={t('userCenter.username')}>
              <Input readOnly variant="borderless" data-testid="user-username" />
            </Form.Item>
            <Form.Item name="name" label={t('userCenter.name')}>
              <Input readOnly variant="borderless" data-testid="user-name" />
            </Form.Item>
            <Form.Item name="userId" label={t('userCenter.userId')}>
              <Input readOnly variant="borderless" data-testid="user-userId" />
            </Form.Item>
            <Form.Item name="isAdmin" label={t('userCenter.isAdmin')} valuePropName="checked">
              <Switch disabled checkedChildren={t('common.yes')} unCheckedChildren={t('common.no')} />
            </Form.Item>
            <Form.Item label={t('userCenter.expiresAt')} htmlFor="user-expiresAt">
              <Input
                id="user-expiresAt"
                readOnly
                variant="borderless"
                value={formatDateTime(user.expiresAt)}
                data-testid="user-expiresAt"
              />
            </Form.Item>
          </Form>
        )}
      </Card>
      <Suspense fallback={<Skeleton active />}>
        <TwoFactorCard />
        {user ? <ApiTokensCard isAdmin={user.isAdmin} /> : null}
      </Suspense>
    </>
  );
}

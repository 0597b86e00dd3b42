import { API_TOKEN_MAX_DAYS, type ApiTokenCreated, type ApiTokenScope, type ApiTokenView } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Input, InputNumber, Popconfirm, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createToken,
  fetchAllTokens,
  fetchOwnTokens,
  revokeAnyToken,
  revokeOwnToken,
} from '../../services/accountSecurity';
import { toast } from '../../services/feedback';
import { formatDateTime } from '../../utils/dateTime';

/** The tokens table: the caller's own, or (`everyone`, the administrator) every account's. */
function TokenTable({ everyone }: { everyone: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const queryKey = ['api-tokens', everyone ? 'all' : 'own'];
  const { data, isPending } = useQuery({ queryKey, queryFn: everyone ? fetchAllTokens : fetchOwnTokens });
  const revoke = async (id: string) => {
    toast.success((await (everyone ? revokeAnyToken(id) : revokeOwnToken(id))).message);
    await queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
  };
  const when = (value: string | null) => (value ? formatDateTime(value) : '—');
  return (
    <Table<ApiTokenView>
      rowKey="id"
      size="small"
      loading={isPending}
      dataSource={data ?? []}
      pagination={false}
      data-testid={everyone ? 'api-tokens-all' : 'api-tokens-own'}
      columns={[
        ...(everyone ? [{ title: t('apiTokens.account'), dataIndex: 'userId' }] : []),
        { title: t('apiTokens.name'), dataIndex: 'name' },
        {
          title: t('apiTokens.scope'),
          dataIndex: 'scope',
          render: (scope: ApiTokenScope) => t(`apiTokens.scope.${scope}`),
        },
        { title: t('apiTokens.created'), dataIndex: 'createdAt', render: when },
        { title: t('apiTokens.expires'), dataIndex: 'expiresAt', render: when },
        { title: t('apiTokens.lastUsed'), dataIndex: 'lastUsedAt', render: when },
        {
          title: '',
          key: 'revoke',
          render: (_: unknown, row: ApiTokenView) => (
            <Popconfirm title={t('apiTokens.revokeConfirm')} onConfirm={() => revoke(row.id)}>
              <Button danger size="small" data-testid={`api-token-revoke-${row.name}`}>
                {t('apiTokens.revoke')}
              </Button>
            </Popconfirm>
          ),
        },
      ]}
    />
  );
}

/** API tokens in the personal centre: make one (shown once), list, revoke; the administrator sees all. */
export function ApiTokensCard({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [days, setDays] = useState<number | null>(30);
  const [endWithPassword, setEndWithPassword] = useState(true);
  const [created, setCreated] = useState<ApiTokenCreated>();

  const make = async () => {
    const made = await createToken({
      name: name.trim(),
      scope,
      expiresInDays: days ?? 30,
      revokeOnPasswordChange: endWithPassword,
    });
    setCreated(made);
    setName('');
    await queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
  };

  return (
    <Card title={t('apiTokens.title')} style={{ maxWidth: 960, marginTop: 16 }}>
      <p>{t('apiTokens.description')}</p>
      {created ? (
        <Alert
          type="success"
          style={{ marginBottom: 16 }}
          title={t('apiTokens.createdOnce')}
          description={
            <Typography.Text copyable code data-testid="api-token-created">
              {created.token}
            </Typography.Text>
          }
        />
      ) : null}
      <Space wrap style={{ marginBottom: 16 }}>
        <Input
          data-testid="api-token-name"
          aria-label={t('apiTokens.name')}
          placeholder={t('apiTokens.name')}
          maxLength={64}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <Select<ApiTokenScope>
          data-testid="api-token-scope"
          aria-label={t('apiTokens.scope')}
          value={scope}
          onChange={setScope}
          options={[
            { value: 'read', label: t('apiTokens.scope.read') },
            { value: 'all', label: t('apiTokens.scope.all') },
          ]}
          style={{ width: 180 }}
        />
        <InputNumber<number>
          data-testid="api-token-days"
          aria-label={t('apiTokens.validDays')}
          min={1}
          max={API_TOKEN_MAX_DAYS}
          precision={0}
          value={days}
          onChange={setDays}
          addonAfter={t('apiTokens.days')}
        />
        <Checkbox checked={endWithPassword} onChange={(e) => setEndWithPassword(e.target.checked)}>
          {t('apiTokens.endWithPassword')}
        </Checkbox>
        <Button type="primary" data-testid="api-token-create" disabled={!name.trim()} onClick={() => void make()}>
          {t('apiTokens.create')}
        </Button>
      </Space>
      <TokenTable everyone={false} />
      {isAdmin ? (
        <>
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            {t('apiTokens.allTitle')}
          </Typography.Title>
          <TokenTable everyone />
        </>
      ) : null}
    </Card>
  );
}

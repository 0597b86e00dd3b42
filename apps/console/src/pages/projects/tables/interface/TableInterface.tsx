import {
  type Field,
  LIST_FIELD_OPERATORS,
  LIST_LOGICAL_OPERATORS,
  PROJECT_HEADER,
  RECORD_QUERY_KEYS,
  TABLE_API_BASE,
  TABLE_RECORD_CALLS,
  type TableDefinition,
} from '@gantry/shared';
import { Descriptions, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import i18n from '../../../../i18n';
import { tableApiEn } from '../../../../i18n/tableApi.en';
import { tableApiZh } from '../../../../i18n/tableApi.zh_Hans';
import { dynamicText } from '../texts';

/** An example value of a field's type, for the example body. */
function exampleValue(field: Field): unknown {
  switch (field.type) {
    case 'number':
    case 'rating':
      return 1;
    case 'boolean':
      return true;
    case 'date':
      return '2026-01-01';
    default:
      return 'text';
  }
}

// The interface's texts come with its chunk (weight/budgets.ts: the project detail loads the table texts).
i18n.addResourceBundle('zh_Hans', 'translation', tableApiZh, true, false);
i18n.addResourceBundle('en', 'translation', tableApiEn, true, false);

/** Terms of the query language, each with its text; titled ones (the operators) in two columns on wide screens. */
function ApiTerms<T extends string>({
  terms,
  idPrefix,
  title,
  text,
}: {
  terms: readonly T[];
  /** Each text's test id is this, a dash and the term. */
  idPrefix: string;
  title?: string;
  text: (term: T) => string;
}) {
  return (
    <Descriptions size="small" column={title ? { xs: 1, md: 2 } : 1} bordered title={title}>
      {terms.map((term) => (
        <Descriptions.Item key={term} label={<Typography.Text code>{term}</Typography.Text>}>
          <span data-testid={`${idPrefix}-${term}`}>{text(term)}</span>
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

const methodColour = { GET: 'blue', POST: 'green', PUT: 'orange', PATCH: 'gold', DELETE: 'red' } as const;

/**
 * The table interface (backups-data-designer.md §4a, issue 32): the table's records API for its
 * owner, from the calls, operators and query keys the server itself registers and parses
 * (`@gantry/shared` table-interface.ts), its published fields, and an example with an API token.
 */
export default function TableInterface({
  projectId,
  tableId,
  definition,
}: {
  projectId: string;
  tableId: string;
  definition: TableDefinition;
}) {
  const { t } = useTranslation();
  const base = `${window.location.origin}${TABLE_API_BASE}`;
  const records = `${base}/tables/${tableId}/records`;
  const first = definition.fields[0]?.name ?? 'id';
  const query = encodeURIComponent(JSON.stringify({ filter: { [first]: { like: 'x' } }, limit: 20 }));
  const body = JSON.stringify(Object.fromEntries(definition.fields.map((field) => [field.name, exampleValue(field)])));
  const token = 'gty_…';
  const headers = `-H "Authorization: Bearer ${token}" -H "${PROJECT_HEADER}: ${projectId}"`;
  const examples = [
    `curl ${headers} "${records}?query=${query}"`,
    `curl -X POST ${headers} -H "Content-Type: application/json" -d '${body}' "${records}"`,
  ].join('\n\n');

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="table-interface">
      <Typography.Paragraph>{t('tableApi.intro')}</Typography.Paragraph>
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('tableApi.base')}>
          <Typography.Text code copyable>
            {base}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('tableApi.token')}>
          <Typography.Text code>{`Authorization: Bearer ${token}`}</Typography.Text> {t('tableApi.tokenHint')}
        </Descriptions.Item>
        <Descriptions.Item label={t('tableApi.project')}>
          <Typography.Text code copyable>{`${PROJECT_HEADER}: ${projectId}`}</Typography.Text>
        </Descriptions.Item>
      </Descriptions>

      <Typography.Title level={5}>{t('tableApi.calls')}</Typography.Title>
      <Table
        size="small"
        pagination={false}
        rowKey="key"
        scroll={{ x: true }}
        dataSource={[...TABLE_RECORD_CALLS]}
        columns={[
          {
            title: t('tableApi.method'),
            dataIndex: 'method',
            render: (method: keyof typeof methodColour) => <Tag color={methodColour[method]}>{method}</Tag>,
          },
          {
            title: t('tableApi.path'),
            dataIndex: 'path',
            render: (path: string, call) => (
              <Typography.Text code data-testid={`api-call-${call.key}`}>
                {path.replace(':id', tableId)}
              </Typography.Text>
            ),
          },
          { title: t('tableApi.does'), key: 'does', render: (_, call) => t(`tableApi.call.${call.key}`) },
          {
            title: t('tableApi.scope'),
            key: 'scope',
            render: (_, call) => (call.write ? t('tableApi.scopeAll') : t('tableApi.scopeRead')),
          },
        ]}
      />

      <Typography.Title level={5}>{t('tableApi.fields')}</Typography.Title>
      <Table
        size="small"
        pagination={false}
        rowKey="name"
        scroll={{ x: true }}
        dataSource={definition.fields}
        columns={[
          {
            title: t('tableApi.identifier'),
            dataIndex: 'name',
            render: (name: string) => (
              <Typography.Text code data-testid={`api-field-${name}`}>
                {name}
              </Typography.Text>
            ),
          },
          { title: t('tableApi.fieldTitle'), dataIndex: 'title' },
          {
            title: t('tableApi.type'),
            dataIndex: 'type',
            render: (type: string) => <Tag>{dynamicText(t, `designer.type.${type}`, type)}</Tag>,
          },
          {
            title: t('tableApi.required'),
            dataIndex: 'required',
            render: (required: boolean | undefined) => (required ? t('tableApi.yes') : t('tableApi.no')),
          },
        ]}
      />

      <Typography.Title level={5}>{t('tableApi.query')}</Typography.Title>
      <Typography.Paragraph>{t('tableApi.queryIntro')}</Typography.Paragraph>
      <ApiTerms terms={RECORD_QUERY_KEYS} idPrefix="api-query" text={(key) => t(`tableApi.queryKey.${key}`)} />
      <ApiTerms
        terms={LIST_FIELD_OPERATORS}
        idPrefix="api-op"
        title={t('tableApi.operators')}
        text={(op) => t(`tableApi.op.${op}`)}
      />
      <ApiTerms
        terms={LIST_LOGICAL_OPERATORS}
        idPrefix="api-logical"
        title={t('tableApi.logical')}
        text={(op) => t(`tableApi.logicalOp.${op}`)}
      />

      <Typography.Title level={5}>{t('tableApi.example')}</Typography.Title>
      <Typography.Paragraph>{t('tableApi.exampleIntro')}</Typography.Paragraph>
      <Typography.Paragraph copyable={{ text: examples }}>
        <pre data-testid="api-example" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 }}>
          {examples}
        </pre>
      </Typography.Paragraph>
    </Space>
  );
}

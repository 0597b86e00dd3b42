import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type Field, type FieldRule, RULE_HINTS, RULE_OPERATORS, RULE_TRIGGERS } from '@gantry/shared';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Switch, Tabs } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../../../components/ScrollTable';
import { toast } from '../../../../services/feedback';
import { RequestError } from '../../../../services/request';
import {
  type PublishPreview,
  publishPreview,
  publishTable,
  saveDraft,
  type TableDetail,
} from '../../../../services/tables';
import { type Draft, draftProblems, problemPlace, withProperties } from '../draft';
import { ProblemItem } from '../ProblemItem';
import { RecordForm } from '../records/RecordForm';
import { dynamicText } from '../texts';
import { detailConfig, displayConfig } from '../viewConfig';
import type { TableChoice } from './FieldEditor';
import { FieldList } from './FieldList';
import { PermissionsTab } from './PermissionsTab';
import { PublishDialog } from './PublishDialog';

interface Props {
  projectId: string;
  table: TableDetail;
  tables: readonly TableChoice[];
  onChanged: () => void;
}

const LIST_SWITCHES = [
  'showInList',
  'sortable',
  'showInFilter',
  'dedupeFilterOptions',
  'editableInList',
  'batchEdit',
] as const;

/**
 * The table designer (backups-data-designer.md §2): the tabs basic config, validation, advanced
 * config, permissions, display config, list config and record detail config, and the form preview;
 * save draft, publish / update publish after the difference. The shared table schema checks the draft
 * first (the same rules as the server's, which stays the authority).
 */
export default function Designer({ projectId, table, tables, onChanged }: Props) {
  const { t } = useTranslation();
  const [draft, editDraft] = useState<Draft>(table.draft);
  // The server's refusal of the last save; the shared rules' own problems are checked as the user types.
  const [refused, setRefused] = useState<Record<string, string>>({});
  const live = useMemo(() => draftProblems(draft), [draft]);
  const problems = useMemo(() => ({ ...refused, ...live }), [refused, live]);
  // Any change may fix what the server refused: its problems go, the shared rules' stay while they hold.
  const setDraft = (next: Draft) => {
    editDraft(next);
    setRefused({});
  };
  const [preview, setPreview] = useState<PublishPreview>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [tab, setTab] = useState('basic');
  useEffect(() => {
    editDraft(table.draft);
    setRefused({});
  }, [table]);
  const update = table.published !== null;
  const fieldChoices = draft.fields.map((field) => ({ value: field.name, label: `${field.title} (${field.name})` }));
  const display = displayConfig(draft.display);
  const detail = detailConfig(draft.detail);
  const setFields = (fields: Field[]) => setDraft({ ...draft, fields });

  /** Saves the draft; `announce` false when a publish follows (its own toast, 发布成功, says it). */
  const save = async (announce = true): Promise<boolean> => {
    if (Object.keys(live).length > 0) {
      toast.hint(t('designer.checkFailed', { count: Object.keys(live).length }));
      return false;
    }
    setBusy(true);
    try {
      await saveDraft(projectId, table.id, draft as never);
      setRefused({});
      if (announce) toast.success(t('tables.ui.saved'));
      onChanged();
      return true;
    } catch (error) {
      if (error instanceof RequestError) {
        setRefused(error.fields ?? { _: error.message });
        toast.error(error.message);
      }
      return false;
    } finally {
      setBusy(false);
    }
  };

  const publish = async () => {
    if (!preview) return;
    setBusy(true);
    try {
      await publishTable(projectId, table.id, preview.draftVersion);
      setPreview(undefined);
      setFailure(undefined);
      toast.success(t('designer.published'));
      onChanged();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setFailure(
        error instanceof RequestError && error.code === 'tablePublishFailed'
          ? message
          : t('designer.publishFailed', { reason: message }),
      );
    } finally {
      setBusy(false);
    }
  };

  const setRule = (index: number, change: Partial<FieldRule>) =>
    setDraft({ ...draft, rules: draft.rules.map((rule, i) => (i === index ? { ...rule, ...change } : rule)) });

  const problemList = Object.entries(problems);
  /** A problem named by the field (title and identifier), option or rule it is about, never by its path. */
  const problemText = (path: string, problem: string): string => {
    const place = problemPlace(draft, path);
    if (place.rule !== undefined) return t('designer.problemAtRule', { n: place.rule, problem });
    if (place.field === undefined) return problem;
    if (place.option !== undefined)
      return t('designer.problemAtOption', { field: place.field, n: place.option, problem });
    return t('designer.problemAt', { field: place.field, problem });
  };
  return (
    <div data-testid="designer">
      {problemList.length > 0 && (
        <Alert
          type="error"
          data-testid="draft-problems"
          style={{ marginBottom: 12 }}
          title={
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {problemList.map(([path, key]) => (
                <li key={path}>{problemText(path, dynamicText(t, key))}</li>
              ))}
            </ul>
          }
        />
      )}
      <Tabs
        data-testid="designer-tabs"
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          {
            key: 'basic',
            label: t('designer.tab.basic'),
            children: (
              <FieldList
                fields={draft.fields}
                onChange={setFields}
                problems={problems}
                prefix="fields"
                tables={tables}
              />
            ),
          },
          {
            key: 'validation',
            label: t('designer.tab.validation'),
            children: (
              <Space orientation="vertical" style={{ width: '100%' }}>
                <Form layout="vertical" component="div">
                  <Form.Item label={t('designer.uniqueTogether')}>
                    <Select
                      mode="multiple"
                      data-testid="unique-together"
                      value={draft.uniqueTogether}
                      options={fieldChoices}
                      onChange={(uniqueTogether: string[]) => setDraft({ ...draft, uniqueTogether })}
                    />
                  </Form.Item>
                </Form>
                <Card size="small" title={t('designer.rules')}>
                  {draft.rules.map((rule, index) => {
                    const problem = problems[`rules.${index}`] ?? problems[`rules.${index}.field`];
                    return (
                      // biome-ignore lint/suspicious/noArrayIndexKey: rules have no identity but their place
                      <div key={index} data-testid={`rule-${index}`} style={{ marginBottom: 12 }}>
                        <Space wrap>
                          <Select
                            placeholder={t('designer.rule.trigger')}
                            style={{ width: 120 }}
                            value={rule.trigger}
                            options={RULE_TRIGGERS.map((value) => ({ value, label: t(`designer.trigger.${value}`) }))}
                            onChange={(trigger) => setRule(index, { trigger })}
                          />
                          <Select
                            placeholder={t('designer.rule.hint')}
                            style={{ width: 120 }}
                            value={rule.hint}
                            options={RULE_HINTS.map((value) => ({ value, label: t(`designer.hint.${value}`) }))}
                            onChange={(hint) => setRule(index, { hint })}
                          />
                          <Select
                            placeholder={t('designer.rule.field')}
                            style={{ width: 160 }}
                            value={rule.field}
                            options={fieldChoices}
                            onChange={(field) => setRule(index, { field })}
                          />
                          <Select
                            style={{ width: 120 }}
                            value={rule.operator}
                            options={RULE_OPERATORS.map((value) => ({ value, label: t(`designer.op.${value}`) }))}
                            onChange={(operator) => setRule(index, { operator })}
                          />
                          <Input
                            placeholder={t('designer.rule.value')}
                            style={{ width: 120 }}
                            value={rule.value === undefined ? '' : String(rule.value)}
                            onChange={(event) => {
                              const text = event.target.value;
                              const number = Number(text);
                              setRule(index, {
                                value:
                                  text === ''
                                    ? undefined
                                    : text.trim() !== '' && Number.isFinite(number)
                                      ? number
                                      : text,
                              });
                            }}
                          />
                          <Input
                            placeholder={t('designer.rule.content')}
                            style={{ width: 220 }}
                            value={rule.content ?? ''}
                            onChange={(event) => setRule(index, { content: event.target.value || undefined })}
                          />
                          <Button
                            type="text"
                            danger
                            icon={<DeleteOutlined />}
                            aria-label={t('tables.ui.delete')}
                            onClick={() => setDraft({ ...draft, rules: draft.rules.filter((_rule, i) => i !== index) })}
                          />
                        </Space>
                        {problem && (
                          <div className="ant-form-item-explain-error" data-testid={`rule-problem-${index}`}>
                            {dynamicText(t, problem)}
                          </div>
                        )}
                      </div>
                    );
                  })}
                  <Button
                    icon={<PlusOutlined />}
                    data-testid="rule-add"
                    onClick={() => setDraft({ ...draft, rules: [...draft.rules, { operator: 'eq' }] })}
                  >
                    {t('designer.addRule')}
                  </Button>
                </Card>
              </Space>
            ),
          },
          {
            key: 'advanced',
            label: t('designer.tab.advanced'),
            children: (
              <Form layout="vertical" component="div" style={{ maxWidth: 480 }}>
                <Form.Item label={t('designer.internal')}>
                  <Switch
                    data-testid="table-internal"
                    checked={draft.internal}
                    onChange={(internal) => setDraft({ ...draft, internal })}
                  />
                </Form.Item>
                <ProblemItem
                  label={t('designer.associatedField')}
                  problem={problems.associatedField && dynamicText(t, problems.associatedField)}
                >
                  <Select
                    allowClear
                    data-testid="associated-field"
                    disabled={draft.internal}
                    value={draft.associatedField}
                    options={fieldChoices}
                    onChange={(associatedField) =>
                      setDraft({ ...draft, associatedField: associatedField ?? undefined })
                    }
                  />
                </ProblemItem>
              </Form>
            ),
          },
          {
            key: 'permissions',
            label: t('designer.tab.permissions'),
            children: <PermissionsTab draft={draft} onChange={setDraft} />,
          },
          {
            key: 'display',
            label: t('designer.tab.display'),
            children: (
              <Form layout="vertical" component="div" style={{ maxWidth: 480 }}>
                <Form.Item label={t('designer.display.columns')}>
                  <Select
                    data-testid="display-columns"
                    value={display.columns ?? 1}
                    options={[1, 2, 3].map((value) => ({ value, label: String(value) }))}
                    onChange={(columns) => setDraft({ ...draft, display: { ...display, columns } })}
                  />
                </Form.Item>
                <Form.Item label={t('designer.display.labelLayout')}>
                  <Select
                    value={display.labelLayout ?? 'top'}
                    options={(['top', 'left'] as const).map((value) => ({
                      value,
                      label: t(`designer.display.${value}`),
                    }))}
                    onChange={(labelLayout) => setDraft({ ...draft, display: { ...display, labelLayout } })}
                  />
                </Form.Item>
              </Form>
            ),
          },
          {
            key: 'list',
            label: t('designer.tab.list'),
            children: (
              <Space orientation="vertical" style={{ width: '100%' }}>
                <Row gutter={12}>
                  <Col xs={24} sm={8}>
                    <Form.Item label={t('designer.list.pageSize')} layout="vertical">
                      <InputNumber
                        data-testid="list-page-size"
                        min={1}
                        max={1000}
                        precision={0}
                        value={draft.list.pageSize}
                        onChange={(pageSize) =>
                          setDraft({ ...draft, list: { ...draft.list, pageSize: pageSize ?? 20 } })
                        }
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={8}>
                    <Form.Item label={t('designer.list.sortField')} layout="vertical">
                      <Select
                        allowClear
                        placeholder={t('designer.list.createTime')}
                        value={draft.list.sortField}
                        options={fieldChoices}
                        onChange={(sortField) =>
                          setDraft({ ...draft, list: { ...draft.list, sortField: sortField ?? undefined } })
                        }
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={24} sm={8}>
                    <Form.Item label={t('designer.list.sortOrder')} layout="vertical">
                      <Select
                        value={draft.list.sortOrder}
                        options={[
                          { value: 1, label: t('designer.list.asc') },
                          { value: -1, label: t('designer.list.desc') },
                        ]}
                        onChange={(sortOrder: 1 | -1) => setDraft({ ...draft, list: { ...draft.list, sortOrder } })}
                      />
                    </Form.Item>
                  </Col>
                </Row>
                <ScrollTable<Field>
                  rowKey="name"
                  size="small"
                  pagination={false}
                  scroll={{ x: 960 }}
                  dataSource={draft.fields}
                  data-testid="list-columns"
                  columns={[
                    {
                      title: t('designer.prop.title'),
                      key: 'title',
                      render: (_: unknown, field) => field.title,
                      fixed: 'left',
                    },
                    ...LIST_SWITCHES.map((key) => ({
                      title: t(`designer.prop.${key}`),
                      key,
                      render: (_: unknown, field: Field, index: number) => (
                        <Switch
                          size="small"
                          data-testid={`list-${key}-${field.name}`}
                          checked={field[key]}
                          onChange={(checked) =>
                            setFields(
                              draft.fields.map((item, i) =>
                                i === index ? withProperties(item, { [key]: checked }) : item,
                              ),
                            )
                          }
                        />
                      ),
                    })),
                    {
                      title: t('designer.prop.width'),
                      key: 'width',
                      render: (_: unknown, field: Field, index: number) => (
                        <InputNumber
                          size="small"
                          min={40}
                          max={2000}
                          precision={0}
                          value={field.width ?? null}
                          onChange={(width) =>
                            setFields(
                              draft.fields.map((item, i) =>
                                i === index ? withProperties(item, { width: width ?? undefined }) : item,
                              ),
                            )
                          }
                        />
                      ),
                    },
                    {
                      title: t('designer.prop.fixed'),
                      key: 'fixed',
                      render: (_: unknown, field: Field, index: number) => (
                        <Select
                          size="small"
                          allowClear
                          style={{ width: 90 }}
                          value={field.fixed}
                          options={(['left', 'right'] as const).map((value) => ({
                            value,
                            label: t(`designer.val.${value}`),
                          }))}
                          onChange={(fixed) =>
                            setFields(
                              draft.fields.map((item, i) =>
                                i === index ? withProperties(item, { fixed: fixed ?? undefined }) : item,
                              ),
                            )
                          }
                        />
                      ),
                    },
                  ]}
                />
              </Space>
            ),
          },
          {
            key: 'detail',
            label: t('designer.tab.detail'),
            children: (
              <Form layout="vertical" component="div" style={{ maxWidth: 480 }}>
                <Form.Item label={t('designer.detail.columns')}>
                  <Select
                    value={detail.columns ?? 2}
                    options={[1, 2, 3].map((value) => ({ value, label: String(value) }))}
                    onChange={(columns) => setDraft({ ...draft, detail: { ...detail, columns } })}
                  />
                </Form.Item>
                <Form.Item label={t('designer.detail.hidden')}>
                  <Select
                    mode="multiple"
                    data-testid="detail-hidden"
                    value={detail.hidden ?? []}
                    options={fieldChoices}
                    onChange={(hidden: string[]) => setDraft({ ...draft, detail: { ...detail, hidden } })}
                  />
                </Form.Item>
              </Form>
            ),
          },
          {
            key: 'preview',
            label: t('designer.preview'),
            children: (
              <div data-testid="form-preview">
                <RecordForm definition={draft} mode="create" projectId={projectId} preview />
              </div>
            ),
          },
        ]}
      />
      {/* Stays in sight while a long design is edited; below the form preview, whose last hints it
          would cover, and above the small screens' bottom tab bar (styles.css). */}
      <Space
        wrap
        className="gantry-designer-bar"
        data-testid="designer-bar"
        style={{
          position: tab === 'preview' ? 'static' : 'sticky',
          zIndex: 2,
          width: '100%',
          padding: '8px 0',
          marginTop: 12,
          background: 'var(--ant-color-bg-container, #fff)',
        }}
      >
        <Button data-testid="save-draft" loading={busy} onClick={() => void save()}>
          {t('tables.ui.saveDraft')}
        </Button>
        <Button
          type="primary"
          data-testid="publish"
          loading={busy}
          onClick={async () => {
            if (!(await save(false))) return;
            setFailure(undefined);
            setPreview(await publishPreview(projectId, table.id));
          }}
        >
          {update ? t('tables.ui.updatePublish') : t('tables.ui.publish')}
        </Button>
      </Space>
      <PublishDialog
        preview={preview}
        update={update}
        publishing={busy}
        failure={failure}
        onConfirm={() => void publish()}
        onCancel={() => setPreview(undefined)}
      />
    </div>
  );
}

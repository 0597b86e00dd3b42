import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Flex, Form, type FormInstance, Input, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { translateMessage } from '../../i18n';
import { isRequestError } from '../../services/request';
import { EXPAND_KEY, saveProjectExpand, useProjectExpand } from './api';
import { type FieldRow, fromRows, PROJECT_WIDGETS, rowProblems, TEXT_WIDGET_KINDS, toRows } from './schemaForm';
import { useExpandText } from './texts';

/**
 * /app/settings/project (console.md §2): the project extension schema editor. Each row is a field: its
 * identifier, title, widget (text with its kind), required, editable and batch-changeable, and the
 * options of the type the widget stands for as JSON (choices, digits, formula expression…).
 */
export default function ProjectExpandPage() {
  const text = useExpandText();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { data: expand } = useProjectExpand();
  const [form] = Form.useForm<{ fields: FieldRow[] }>();
  const [saving, setSaving] = useState(false);
  if (!expand) return <Spin />;

  const showProblems = (fields: Record<string, string>) =>
    (form as FormInstance).setFields(
      Object.entries(fields).map(([path, error]) => ({
        name: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
        errors: [translateMessage(error)],
      })),
    );

  const onFinish = async ({ fields }: { fields?: FieldRow[] }) => {
    const built = fromRows(fields ?? [], expand.form);
    if (!built.ok) return showProblems(built.fields);
    setSaving(true);
    try {
      await saveProjectExpand(built.expand);
      await queryClient.invalidateQueries({ queryKey: EXPAND_KEY });
      void message.success(text('projectExpand.ui.saved'));
    } catch (error) {
      if (isRequestError(error) && error.fields)
        showProblems(
          rowProblems(
            Object.entries(error.fields).map(([path, m]) => ({ path: path.split('.'), message: m })),
            fields ?? [],
          ),
        );
      else void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={text('projectExpand.ui.title')}>
      <Typography.Paragraph type="secondary">{text('projectExpand.ui.intro')}</Typography.Paragraph>
      <Form
        form={form}
        initialValues={{ fields: toRows(expand) }}
        onFinish={onFinish}
        data-testid="project-expand-form"
      >
        <Form.List name="fields">
          {(rows, { add, remove }) => (
            <>
              {rows.map((row) => (
                <Flex key={row.key} gap={8} wrap align="start" data-testid={`project-expand-row-${row.name}`}>
                  <Form.Item name={[row.name, 'name']} rules={[{ required: true }]}>
                    <Input placeholder={text('projectExpand.ui.name')} style={{ width: 130 }} />
                  </Form.Item>
                  <Form.Item name={[row.name, 'title']} rules={[{ required: true }]}>
                    <Input placeholder={text('projectExpand.ui.fieldTitle')} style={{ width: 140 }} />
                  </Form.Item>
                  <Form.Item name={[row.name, 'widget']} initialValue="text">
                    <Select
                      style={{ width: 150 }}
                      aria-label={text('projectExpand.ui.widget')}
                      options={PROJECT_WIDGETS.map((w) => ({ value: w, label: text(`projectExpand.widget.${w}`) }))}
                    />
                  </Form.Item>
                  <Form.Item noStyle shouldUpdate>
                    {() =>
                      form.getFieldValue(['fields', row.name, 'widget']) === 'text' ? (
                        <Form.Item name={[row.name, 'kind']} initialValue="normal">
                          <Select
                            style={{ width: 130 }}
                            aria-label={text('projectExpand.ui.kind')}
                            options={TEXT_WIDGET_KINDS.map((k) => ({
                              value: k,
                              label: text(`projectExpand.kind.${k}`),
                            }))}
                          />
                        </Form.Item>
                      ) : null
                    }
                  </Form.Item>
                  <Form.Item name={[row.name, 'options']}>
                    <Input placeholder={text('projectExpand.ui.options')} style={{ width: 220 }} />
                  </Form.Item>
                  <Form.Item name={[row.name, 'required']} valuePropName="checked">
                    <Checkbox>{text('projectExpand.ui.required')}</Checkbox>
                  </Form.Item>
                  <Form.Item name={[row.name, 'editable']} valuePropName="checked">
                    <Checkbox>{text('projectExpand.ui.editable')}</Checkbox>
                  </Form.Item>
                  <Form.Item name={[row.name, 'batch']} valuePropName="checked">
                    <Checkbox>{text('projectExpand.ui.batch')}</Checkbox>
                  </Form.Item>
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={text('projectExpand.ui.remove')}
                    onClick={() => remove(row.name)}
                  />
                </Flex>
              ))}
              <Flex gap={8}>
                <Button
                  icon={<PlusOutlined />}
                  onClick={() => add({ widget: 'text', kind: 'normal', editable: true })}
                  data-testid="project-expand-add"
                >
                  {text('projectExpand.ui.add')}
                </Button>
                <Button type="primary" htmlType="submit" loading={saving} data-testid="project-expand-save">
                  {text('projectExpand.ui.save')}
                </Button>
              </Flex>
            </>
          )}
        </Form.List>
      </Form>
    </Card>
  );
}

import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Flex, Form, type FormInstance, Input, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { translateMessage } from '../../i18n';
import { toast } from '../../services/feedback';
import { isRequestError } from '../../services/request';
import { EXPAND_KEY, saveProjectExpand, useProjectExpand } from './api';
import { ChoiceRows } from './ChoiceRows';
import { type FieldRow, fromRows, PROJECT_WIDGETS, rowProblems, TEXT_WIDGET_KINDS, toRows } from './schemaForm';
import { useExpandText } from './texts';

/** Column widths, the same in every row whatever its widget (a text's kind or a placeholder). */
const WIDTH = { name: 140, title: 150, widget: 150, kind: 130, options: 240 } as const;

/**
 * /app/settings/project (console.md §2): the project extension schema editor. Each row is a field: its
 * identifier, title, widget (text with its kind), required, editable and batch-changeable; a
 * selector's options are rows of value and label; other settings of the widget's type are a JSON
 * object. Every problem is shown on its column, translated and naming the field, and goes when the
 * value is changed.
 */
export default function ProjectExpandPage() {
  const text = useExpandText();
  const queryClient = useQueryClient();
  const { data: expand } = useProjectExpand();
  const [form] = Form.useForm<{ fields: FieldRow[] }>();
  const [saving, setSaving] = useState(false);
  if (!expand) return <Spin />;

  const showProblems = (problems: Record<string, string>, rows: FieldRow[]) =>
    (form as FormInstance).setFields(
      Object.entries(problems).map(([path, error]) => {
        const name = path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
        const row = rows[Number(name[1])];
        const field = row?.title?.trim() || row?.name?.trim() || String(Number(name[1]) + 1);
        return { name, errors: [text('projectExpand.ui.problem', { field, problem: translateMessage(error) })] };
      }),
    );

  const onFinish = async ({ fields }: { fields?: FieldRow[] }) => {
    const rows = fields ?? [];
    const built = fromRows(rows, expand.form);
    if (!built.ok) return showProblems(built.fields, rows);
    setSaving(true);
    try {
      await saveProjectExpand(built.expand);
      await queryClient.invalidateQueries({ queryKey: EXPAND_KEY });
      toast.success(text('projectExpand.ui.saved'));
    } catch (error) {
      if (isRequestError(error) && error.fields)
        showProblems(
          rowProblems(
            Object.entries(error.fields).map(([path, m]) => ({ path: path.split('.'), message: m })),
            rows,
          ),
          rows,
        );
      else toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  /** A changed value takes its column's problem away (the next save checks again). */
  const clearProblems = () => {
    // the rows' paths are checked by the editor, not by the form's value type
    const untyped: FormInstance = form;
    untyped.setFields(
      untyped
        .getFieldsError()
        .filter((field) => field.errors.length > 0 && untyped.isFieldTouched(field.name))
        .map((field) => ({ name: field.name, errors: [] })),
    );
  };

  return (
    <Card title={text('projectExpand.ui.title')}>
      <Typography.Paragraph type="secondary">{text('projectExpand.ui.intro')}</Typography.Paragraph>
      <Form
        form={form}
        initialValues={{ fields: toRows(expand) }}
        onFinish={onFinish}
        onValuesChange={clearProblems}
        data-testid="project-expand-form"
      >
        <Form.List name="fields">
          {(rows, { add, remove }) => (
            <>
              {rows.map((row) => (
                <div key={row.key} className="gantry-expand-row" data-testid={`project-expand-row-${row.name}`}>
                  <Flex gap={8} wrap align="start">
                    <Form.Item
                      name={[row.name, 'name']}
                      rules={[{ required: true, message: text('projectExpand.ui.name') }]}
                    >
                      <Input
                        placeholder={text('projectExpand.ui.name')}
                        aria-label={text('projectExpand.ui.name')}
                        style={{ width: WIDTH.name }}
                        data-testid={`project-expand-name-${row.name}`}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[row.name, 'title']}
                      rules={[{ required: true, message: text('projectExpand.ui.fieldTitle') }]}
                    >
                      <Input
                        placeholder={text('projectExpand.ui.fieldTitle')}
                        aria-label={text('projectExpand.ui.fieldTitle')}
                        style={{ width: WIDTH.title }}
                        data-testid={`project-expand-title-${row.name}`}
                      />
                    </Form.Item>
                    <Form.Item name={[row.name, 'widget']} initialValue="text">
                      <Select
                        style={{ width: WIDTH.widget }}
                        aria-label={text('projectExpand.ui.widget')}
                        data-testid={`project-expand-widget-${row.name}`}
                        options={PROJECT_WIDGETS.map((w) => ({ value: w, label: text(`projectExpand.widget.${w}`) }))}
                      />
                    </Form.Item>
                    <Form.Item noStyle shouldUpdate>
                      {() =>
                        form.getFieldValue(['fields', row.name, 'widget']) === 'text' ? (
                          <Form.Item name={[row.name, 'kind']} initialValue="normal">
                            <Select
                              style={{ width: WIDTH.kind }}
                              aria-label={text('projectExpand.ui.kind')}
                              options={TEXT_WIDGET_KINDS.map((k) => ({
                                value: k,
                                label: text(`projectExpand.kind.${k}`),
                              }))}
                            />
                          </Form.Item>
                        ) : (
                          <div style={{ width: WIDTH.kind }} aria-hidden />
                        )
                      }
                    </Form.Item>
                    <Form.Item name={[row.name, 'options']}>
                      <Input
                        placeholder={text('projectExpand.ui.optionsExample')}
                        aria-label={text('projectExpand.ui.options')}
                        title={text('projectExpand.ui.options')}
                        style={{ width: WIDTH.options }}
                      />
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
                  <Form.Item noStyle shouldUpdate>
                    {() =>
                      form.getFieldValue(['fields', row.name, 'widget']) === 'selector' ? (
                        <ChoiceRows row={row.name} />
                      ) : null
                    }
                  </Form.Item>
                </div>
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

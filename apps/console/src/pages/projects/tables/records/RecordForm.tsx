import {
  checkValues,
  type Field,
  isComputed,
  isRequired,
  type RecordValues,
  type TableDefinition,
} from '@gantry/shared';
import { Alert, Button, Col, Form, Row, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../../../services/request';
import { ProblemItem } from '../ProblemItem';
import { dynamicText } from '../texts';
import { displayConfig } from '../viewConfig';
import { ValueEditor, withValue } from './ValueEditor';

interface Props {
  definition: Pick<TableDefinition, 'fields' | 'display'>;
  mode: 'create' | 'update';
  projectId: string;
  /** The record's values (edit). */
  initial?: RecordValues;
  /** The designer's form preview: no saving. */
  preview?: boolean;
  onSave?: (values: RecordValues) => Promise<void>;
  onCancel?: () => void;
}

/** The fields a form shows: on create those shown on create, on edit those shown on edit (§4a). */
export function formFields(fields: readonly Field[], mode: 'create' | 'update'): Field[] {
  return fields.filter((field) => (mode === 'create' ? field.showOnCreate : field.showOnEdit));
}

/** Problems by the top field they are about (`items.2.qty` → `items`), texts or message keys. */
function byField(problems: Record<string, string>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [path, message] of Object.entries(problems)) {
    const top = path.split('.')[0] ?? path;
    const detail = path.includes('.') ? `${path.slice(top.length + 1)}: ` : '';
    out[top] = [...(out[top] ?? []), `${detail}${message}`];
  }
  return out;
}

/**
 * A record's form (issue 16 §2): the fields the create/edit visibility flags show, an editor per type,
 * the display config's columns and labels; the shared value schemas check it before the server does.
 */
export function RecordForm({ definition, mode, initial = {}, preview = false, onSave, onCancel }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState<RecordValues>(initial);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const fields = formFields(definition.fields, mode);
  const display = displayConfig(definition.display);
  const columns = display.columns ?? 1;
  const grouped = byField(problems);

  const submit = async () => {
    const editable = fields.filter((field) => !isComputed(field));
    const body: RecordValues = {};
    for (const field of editable) {
      if (
        mode === 'create'
          ? values[field.name] !== undefined
          : Object.hasOwn(values, field.name) || Object.hasOwn(initial, field.name)
      )
        body[field.name] = values[field.name] ?? null;
    }
    const checked = checkValues(editable, body, mode, initial);
    if (checked.problems.length > 0) {
      setProblems(
        Object.fromEntries(
          checked.problems.map((problem) => [problem.path, t(problem.message, problem.params ?? {}) as string]),
        ),
      );
      return;
    }
    if (!onSave) return;
    setSaving(true);
    try {
      await onSave(body);
      setProblems({});
    } catch (error) {
      if (error instanceof RequestError) setProblems(error.fields ?? { _: error.message });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form
      layout={display.labelLayout === 'left' ? 'horizontal' : 'vertical'}
      labelCol={display.labelLayout === 'left' ? { flex: '120px' } : undefined}
      labelWrap
      component="div"
      data-testid="record-form"
    >
      {problems._ && <Alert type="error" title={problems._} style={{ marginBottom: 12 }} />}
      <Row gutter={16}>
        {fields.map((field) => {
          const own = grouped[field.name];
          const description = field.description
            ? field.descriptionDisplay === 'tooltip'
              ? { tooltip: field.description }
              : { extra: field.description }
            : {};
          return (
            <Col key={field.name} xs={24} md={field.type === 'subTable' ? 24 : 24 / columns}>
              <ProblemItem
                label={field.title}
                required={isRequired(field)}
                problem={
                  own && (
                    <span data-testid={`record-problem-${field.name}`}>
                      {own.map((text) => dynamicText(t, text)).join('; ')}
                    </span>
                  )
                }
                {...description}
              >
                <ValueEditor
                  field={field}
                  value={values[field.name]}
                  testId={`record-input-${field.name}`}
                  status={own ? 'error' : undefined}
                  onChange={(value) => setValues((current) => withValue(current, field.name, value))}
                />
              </ProblemItem>
            </Col>
          );
        })}
      </Row>
      {!preview && (
        <Space>
          <Button type="primary" data-testid="record-save" loading={saving} onClick={() => void submit()}>
            {t('common.save')}
          </Button>
          {onCancel && <Button onClick={onCancel}>{t('designer.rec.cancel')}</Button>}
        </Space>
      )}
    </Form>
  );
}

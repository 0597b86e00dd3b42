import { asRegistryField, type ExtensionField, isComputedWidget, type ProjectExpand, widgetType } from '@gantry/shared';
import { Form, Input, InputNumber, Rate, Select, Switch } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useExpandText } from './texts';

// The table records' editors and displays for the widgets whose values are objects or lists (date
// range, location, region, attachments, link): loaded only when a schema has such a field.
const RecordValueEditor = lazy(() =>
  import('../projects/tables/records/ValueEditor').then((module) => ({ default: module.ValueEditor })),
);
const RecordValueDisplay = lazy(() =>
  import('../projects/tables/records/ValueDisplay').then((module) => ({ default: module.ValueDisplay })),
);

/** A widget edited as its registry type is in a table's record form (a field not editable: shown). */
function RegistryInput({
  field,
  value,
  onChange,
  disabled,
  testId,
}: {
  field: ExtensionField;
  value?: unknown;
  onChange?: (value: unknown) => void;
  disabled: boolean;
  testId: string;
}) {
  const registry = useMemo(() => asRegistryField(field), [field]);
  return (
    <Suspense fallback={<JsonInput testId={`${testId}-loading`} value={value} />}>
      {disabled ? (
        <span data-testid={testId}>
          <RecordValueDisplay field={registry} value={value} />
        </span>
      ) : (
        <RecordValueEditor
          field={registry}
          value={value}
          onChange={(next) => onChange?.(next ?? null)}
          testId={testId}
        />
      )}
    </Suspense>
  );
}

/** JSON text: the value as it is while the editor of its type loads. */
function JsonInput({ value, testId }: { value?: unknown; testId: string }) {
  const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return <Input.TextArea data-testid={testId} rows={2} disabled value={text} />;
}

function choices(field: ExtensionField) {
  const options = Array.isArray(field.options.options)
    ? (field.options.options as Array<{ value: string; label?: string }>)
    : [];
  return options.map((option) => ({ value: option.value, label: option.label || option.value }));
}

/** What Form.Item hands its control: the value (`checked` for a switch), its setter, the field's id. */
interface Bound {
  value?: unknown;
  checked?: boolean;
  onChange?: (value: unknown) => void;
  id?: string;
}

/** The editor of one field's value, by its widget (the registry type it stands for), bound to the form. */
function Editor({ field, disabled, ...bound }: { field: ExtensionField; disabled: boolean } & Bound) {
  const testId = `project-extra-${field.name}`;
  const { type } = widgetType(field);
  // Form.Item gives its value and setter to its child, this component: each control gets them.
  const common = { 'data-testid': testId, disabled, id: bound.id, onChange: bound.onChange };
  const value = bound.value;
  switch (type) {
    case 'number':
      return <InputNumber {...common} value={value as number | null | undefined} style={{ width: '100%' }} />;
    case 'boolean':
      return <Switch {...common} checked={bound.checked} />;
    case 'rating':
      return <Rate {...common} value={value as number | undefined} count={field.options.max === 10 ? 10 : 5} />;
    case 'select':
    case 'multiSelect':
      return (
        <Select
          {...common}
          value={value as string | string[] | undefined}
          allowClear
          mode={type === 'multiSelect' ? 'multiple' : undefined}
          options={choices(field)}
        />
      );
    case 'text':
      if (field.kind === 'password') return <Input.Password {...common} value={value as string | undefined} />;
      if (field.widget === 'richText')
        return <Input.TextArea {...common} value={value as string | undefined} rows={4} />;
      return <Input {...common} value={value as string | undefined} />;
    case 'date':
    case 'time':
    case 'autoNumber':
    case 'formula':
      return <Input {...common} value={value as string | undefined} />;
    default:
      return (
        <RegistryInput
          field={field}
          testId={testId}
          disabled={disabled}
          value={bound.value}
          onChange={bound.onChange}
        />
      );
  }
}

/**
 * The extension fields of settings/project in a project form (`extra.<name>`): on edit, fields not
 * editable are shown disabled; serial ids and formulas are always the server's; `only` limits the
 * fields shown (batch change: the batch-changeable ones).
 */
export function ExtensionFields({
  expand,
  mode,
  only,
}: {
  expand: ProjectExpand;
  mode: 'create' | 'edit' | 'batch';
  only?: readonly string[];
}) {
  const text = useExpandText();
  const fields = expand.schema.fields.filter((field) => !only || only.includes(field.name));
  return (
    <>
      {fields.map((field) => {
        const computed = isComputedWidget(field);
        const disabled = computed || (mode === 'edit' && !expand.editableFields.includes(field.name));
        const { type } = widgetType(field);
        return (
          <Form.Item
            key={field.name}
            name={['extra', field.name]}
            label={field.title}
            tooltip={field.description}
            required={field.required && mode !== 'batch'}
            extra={computed ? text('projectExpand.ui.computed') : undefined}
            valuePropName={type === 'boolean' ? 'checked' : 'value'}
          >
            <Editor field={field} disabled={disabled} />
          </Form.Item>
        );
      })}
    </>
  );
}

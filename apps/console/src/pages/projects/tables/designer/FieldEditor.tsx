import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type CommonFieldProperties, FIELD_TYPES, type Field, type FieldType, isRecord } from '@gantry/shared';
import { Button, Col, Form, Input, InputNumber, Row, Select, Space, Switch } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { choiceOf, textOf, textsOf } from '../../../../utils/formValues';
import { retype, withProperties } from '../draft';
import { dynamicText } from '../texts';
import type { FieldListProps } from './FieldList';
import { type OptionSpec, optionSpecs } from './optionSpecs';

/** The project's tables, for a relation's table choice. */
export interface TableChoice {
  id: string;
  name: string;
}

interface Props {
  field: Field;
  onChange: (field: Field) => void;
  /** Problems of this field by path under it (`name`, `options.max`, `_`), as message keys. */
  problems: Record<string, string>;
  /** The other fields of the same list (a lookup's relation field). */
  siblings: readonly Field[];
  tables: readonly TableChoice[];
  /** A sub-table's column: no sub-table type. */
  column?: boolean;
  /**
   * What a sub-table's columns are edited with: FieldList, handed in by the list that shows this
   * editor (it imports this module, so this module does not import it).
   */
  columnList: ComponentType<FieldListProps>;
}

const SWITCHES = [
  'required',
  'readOnly',
  'unique',
  'showOnCreate',
  'showOnEdit',
  'showInList',
  'editableInList',
  'batchEdit',
  'showInFilter',
  'dedupeFilterOptions',
  'sortable',
] as const;
const SCRIPTS = ['fieldScript', 'renderScript', 'validateScript'] as const;

export function typeOptions(t: ReturnType<typeof useTranslation>['t'], column = false) {
  return FIELD_TYPES.filter((type) => !column || type !== 'subTable').map((type) => ({
    value: type,
    label: dynamicText(t, `designer.type.${type}`, type),
  }));
}

/**
 * The field editor (issue 16): the common properties of §4a, then the type's options, the inputs of
 * which come from the registry's options schema (optionSpecs). Problems show under their input.
 */
export function FieldEditor({
  field,
  onChange,
  problems,
  siblings,
  tables,
  column = false,
  columnList: ColumnList,
}: Props) {
  const { t } = useTranslation();
  const problem = (path: string) => {
    const key = problems[path];
    return key ? { validateStatus: 'error' as const, help: dynamicText(t, key) } : {};
  };
  const set = (change: Partial<CommonFieldProperties>) => onChange(withProperties(field, change));
  const options: Record<string, unknown> = field.options;
  const setOption = (key: string, value: unknown) => {
    const next = { ...options };
    if (value === undefined || value === null || value === '') delete next[key];
    else next[key] = value;
    onChange({ ...field, options: next } as Field);
  };

  const optionInput = (spec: OptionSpec): ReactNode => {
    const value = options[spec.key];
    const testId = `opt-${spec.key}`;
    if (field.type === 'lookup' && spec.key === 'relation')
      return (
        <Select
          data-testid={testId}
          allowClear
          value={textOf(value)}
          options={siblings
            .filter((item) => item.type === 'relation')
            .map((item) => ({ value: item.name, label: item.title }))}
          onChange={(next) => setOption(spec.key, next)}
        />
      );
    if (field.type === 'relation' && spec.key === 'table')
      return (
        <Select
          data-testid={testId}
          value={textOf(value)}
          options={tables.map((table) => ({ value: table.id, label: table.name }))}
          onChange={(next) => setOption(spec.key, next)}
        />
      );
    const { input } = spec;
    switch (input.kind) {
      case 'boolean':
        return <Switch data-testid={testId} checked={value === true} onChange={(next) => setOption(spec.key, next)} />;
      case 'number':
        return (
          <InputNumber
            data-testid={testId}
            style={{ width: '100%' }}
            min={input.min}
            max={input.max}
            precision={input.integer ? 0 : undefined}
            value={typeof value === 'number' ? value : null}
            onChange={(next) => setOption(spec.key, next ?? undefined)}
          />
        );
      case 'text':
        return input.long ? (
          <Input.TextArea
            data-testid={testId}
            autoSize={{ minRows: 1, maxRows: 6 }}
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => setOption(spec.key, event.target.value)}
          />
        ) : (
          <Input
            data-testid={testId}
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => setOption(spec.key, event.target.value)}
          />
        );
      case 'choice':
        return (
          <Select
            data-testid={testId}
            allowClear={spec.optional}
            value={typeof value === 'number' ? value : textOf(value)}
            options={input.values.map((item) => ({
              value: item,
              label: dynamicText(t, `designer.val.${item}`, String(item)),
            }))}
            onChange={(next) => setOption(spec.key, next)}
          />
        );
      case 'words':
        return (
          <Select
            data-testid={testId}
            mode="tags"
            placeholder={t('designer.wordsHint')}
            value={textsOf(value)}
            onChange={(next: string[]) => setOption(spec.key, next.length ? next : undefined)}
          />
        );
      case 'choiceDefault': {
        const choices = choicesOf(options.options);
        return (
          <Select
            data-testid={testId}
            allowClear
            mode={input.multiple ? 'multiple' : undefined}
            value={choiceOf(value)}
            options={choices.map((choice) => ({ value: choice.value, label: choice.label || choice.value }))}
            onChange={(next) => setOption(spec.key, Array.isArray(next) && next.length === 0 ? undefined : next)}
          />
        );
      }
      case 'choiceList':
        return (
          <div data-testid={testId}>
            <ChoiceList value={choicesOf(value)} problems={problems} onChange={(next) => setOption('options', next)} />
          </div>
        );
      case 'fields':
        return (
          <div data-testid={testId}>
            <ColumnList
              fields={Array.isArray(value) ? (value as Field[]) : []}
              onChange={(next) => onChange({ ...field, options: { ...options, fields: next } } as Field)}
              problems={problems}
              prefix="options.fields"
              tables={tables}
              column
            />
          </div>
        );
    }
  };

  return (
    <Form layout="vertical" data-testid="field-editor" component="div">
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Form.Item label={t('designer.prop.name')} required {...problem('name')}>
            <Input data-testid="prop-name" value={field.name} onChange={(event) => set({ name: event.target.value })} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label={t('designer.prop.title')} required {...problem('title')}>
            <Input
              data-testid="prop-title"
              value={field.title}
              onChange={(event) => set({ title: event.target.value })}
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label={t('designer.prop.type')}>
            <Select
              data-testid="prop-type"
              showSearch={{ optionFilterProp: 'label' }}
              value={field.type}
              options={typeOptions(t, column)}
              onChange={(type: FieldType) => onChange(retype(field, type))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label={t('designer.prop.descriptionDisplay')}>
            <Select
              value={field.descriptionDisplay}
              options={(['tooltip', 'below', 'placeholder'] as const).map((value) => ({
                value,
                label: t(`designer.val.${value}`),
              }))}
              onChange={(descriptionDisplay) => set({ descriptionDisplay })}
            />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label={t('designer.prop.description')}>
            <Input
              data-testid="prop-description"
              value={field.description ?? ''}
              onChange={(event) => set({ description: event.target.value || undefined })}
            />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={12}>
        {SWITCHES.map((key) => (
          <Col xs={12} sm={8} key={key}>
            <Form.Item label={t(`designer.prop.${key}`)} {...problem(key)}>
              <Switch
                data-testid={`prop-${key}`}
                checked={field[key]}
                onChange={(checked) => set({ [key]: checked })}
              />
            </Form.Item>
          </Col>
        ))}
        <Col xs={12} sm={8}>
          <Form.Item label={t('designer.prop.width')}>
            <InputNumber
              data-testid="prop-width"
              min={40}
              max={2000}
              precision={0}
              value={field.width ?? null}
              onChange={(width) => set({ width: width ?? undefined })}
            />
          </Form.Item>
        </Col>
        <Col xs={12} sm={8}>
          <Form.Item label={t('designer.prop.fixed')}>
            <Select
              allowClear
              style={{ minWidth: 100 }}
              value={field.fixed}
              options={(['left', 'right'] as const).map((value) => ({ value, label: t(`designer.val.${value}`) }))}
              onChange={(fixed) => set({ fixed: fixed ?? undefined })}
            />
          </Form.Item>
        </Col>
      </Row>
      {optionSpecs(field.type).length > 0 && <h4>{t('designer.typeSettings')}</h4>}
      <Row gutter={12}>
        {optionSpecs(field.type).map((spec) => (
          <Col
            key={spec.key}
            xs={24}
            sm={spec.input.kind === 'choiceList' || spec.input.kind === 'fields' || spec.key === 'expression' ? 24 : 12}
          >
            <Form.Item
              label={dynamicText(t, `designer.opt.${spec.key}`, spec.key)}
              required={!spec.optional && spec.input.kind !== 'boolean'}
              {...problem(`options.${spec.key}`)}
            >
              {optionInput(spec)}
            </Form.Item>
          </Col>
        ))}
      </Row>
      <Row gutter={12}>
        {SCRIPTS.map((key) => (
          <Col xs={24} md={8} key={key}>
            <Form.Item label={t(`designer.prop.${key}`)}>
              <Input.TextArea
                autoSize={{ minRows: 1, maxRows: 6 }}
                value={field[key] ?? ''}
                onChange={(event) => set({ [key]: event.target.value || undefined })}
              />
            </Form.Item>
          </Col>
        ))}
      </Row>
    </Form>
  );
}

interface Choice {
  value: string;
  label?: string;
  color?: string;
}

const isChoice = (value: unknown): value is Choice =>
  isRecord(value) &&
  typeof value.value === 'string' &&
  (value.label === undefined || typeof value.label === 'string') &&
  (value.color === undefined || typeof value.color === 'string');
/** The choices being edited (each has its value; label and colour optional). */
const choicesOf = (value: unknown): Choice[] => (Array.isArray(value) ? value.filter(isChoice) : []);

/** A choice field's options: value, label and colour, each row's problems beside it. */
function ChoiceList({
  value,
  onChange,
  problems,
}: {
  value: Choice[];
  onChange: (choices: Choice[]) => void;
  problems: Record<string, string>;
}) {
  const { t } = useTranslation();
  const update = (index: number, change: Partial<Choice>) =>
    onChange(
      value.map((choice, i) => {
        if (i !== index) return choice;
        const next: Choice = { ...choice, ...change };
        if (!next.label) delete next.label;
        if (!next.color) delete next.color;
        return next;
      }),
    );
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {value.map((choice, index) => {
        const valueProblem = problems[`options.options.${index}.value`];
        const colourProblem = problems[`options.options.${index}.color`];
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the options have no identity but their place
          <div key={index}>
            <Space.Compact style={{ width: '100%' }}>
              <Input
                aria-label={t('designer.choiceValueOf', { n: index + 1 })}
                data-testid={`choice-value-${index}`}
                placeholder={t('designer.choiceValue')}
                status={valueProblem ? 'error' : undefined}
                value={choice.value}
                onChange={(event) => update(index, { value: event.target.value })}
              />
              <Input
                aria-label={t('designer.choiceLabelOf', { n: index + 1 })}
                data-testid={`choice-label-${index}`}
                placeholder={t('designer.choiceLabel')}
                value={choice.label ?? ''}
                onChange={(event) => update(index, { label: event.target.value })}
              />
              <Input
                aria-label={t('designer.choiceColourOf', { n: index + 1 })}
                data-testid={`choice-colour-${index}`}
                placeholder={t('designer.choiceColour')}
                status={colourProblem ? 'error' : undefined}
                value={choice.color ?? ''}
                prefix={
                  <span
                    style={{
                      display: 'inline-block',
                      width: 12,
                      height: 12,
                      borderRadius: 2,
                      background: choice.color,
                    }}
                  />
                }
                onChange={(event) => update(index, { color: event.target.value })}
              />
              <Button
                icon={<DeleteOutlined />}
                aria-label={t('tables.ui.removeField')}
                onClick={() => onChange(value.filter((_item, i) => i !== index))}
              />
            </Space.Compact>
            {(valueProblem || colourProblem) && (
              <div className="ant-form-item-explain-error" data-testid={`choice-problem-${index}`}>
                {dynamicText(t, valueProblem ?? colourProblem ?? '')}
              </div>
            )}
          </div>
        );
      })}
      <Button
        icon={<PlusOutlined />}
        data-testid="choice-add"
        onClick={() => onChange([...value, { value: `option${value.length + 1}` }])}
      >
        {t('designer.addChoice')}
      </Button>
    </Space>
  );
}

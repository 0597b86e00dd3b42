import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  HolderOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import type { Field, FieldType } from '@gantry/shared';
import { Button, Drawer, Empty, Input, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../../services/feedback';
import { move, newField, problemsUnder } from '../draft';
import { dynamicText } from '../texts';
import { FieldEditor, type TableChoice, typeOptions } from './FieldEditor';

export interface FieldListProps {
  fields: readonly Field[];
  onChange: (fields: Field[]) => void;
  /** The draft's problems by path; `prefix` is where these fields are (`fields`, `fields.3.options.fields`). */
  problems: Record<string, string>;
  prefix: string;
  tables: readonly TableChoice[];
  /** A sub-table's columns. */
  column?: boolean;
}

/** A new field's identifier: the type and the first free number (`text1`, `number2`). */
function freeName(fields: readonly Field[], type: FieldType): string {
  const taken = new Set(fields.map((field) => field.name));
  let n = 1;
  while (taken.has(`${type}${n}`)) n += 1;
  return `${type}${n}`;
}

/**
 * A list of fields (the basic config tab, or a sub-table's columns): reorder by dragging or with the
 * arrows, identifier and title in place, everything else in the field editor drawer.
 */
export function FieldList({ fields, onChange, problems, prefix, tables, column = false }: FieldListProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<number>();
  const [dragged, setDragged] = useState<number>();
  const at = (index: number) => (column ? `col-${index}` : String(index));
  const update = (index: number, field: Field) => onChange(fields.map((item, i) => (i === index ? field : item)));
  const editingField = editing === undefined ? undefined : fields[editing];
  // 完成 closes the drawer only once the field has no problem left (they show under its inputs as typed).
  const done = () => {
    if (editing !== undefined && Object.keys(problemsUnder(problems, `${prefix}.${editing}`)).length > 0) {
      toast.hint(t('designer.fieldHasProblems'));
      return;
    }
    setEditing(undefined);
  };

  return (
    <div data-testid={column ? 'column-list' : 'field-list'}>
      {fields.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('designer.noFields')} />}
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {fields.map((field, index) => {
          const own = problemsUnder(problems, `${prefix}.${index}`);
          const hasProblem = Object.keys(own).length > 0;
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: fields are rows edited in place (their name changes as typed)
              key={index}
              className="designer-field-row"
              data-testid={`field-row-${at(index)}`}
              draggable
              onDragStart={() => setDragged(index)}
              onDragOver={(event) => event.preventDefault()}
              onDrop={() => {
                if (dragged !== undefined) onChange(move(fields, dragged, index));
                setDragged(undefined);
              }}
              style={{
                display: 'flex',
                flexWrap: 'wrap',
                gap: 8,
                alignItems: 'center',
                padding: '6px 4px',
                borderBottom: '1px solid rgba(5,5,5,0.06)',
                background: hasProblem ? 'rgba(255,77,79,0.06)' : undefined,
              }}
            >
              <Tooltip title={t('designer.dragHint')}>
                <HolderOutlined style={{ cursor: 'grab' }} />
              </Tooltip>
              <Input
                aria-label={t('designer.fieldName', { n: index + 1 })}
                data-testid={`field-name-${at(index)}`}
                style={{ width: 150 }}
                value={field.name}
                status={own.name ? 'error' : undefined}
                onChange={(event) => update(index, { ...field, name: event.target.value })}
              />
              <Input
                aria-label={t('designer.fieldTitle', { n: index + 1 })}
                data-testid={`field-title-${at(index)}`}
                style={{ width: 150 }}
                value={field.title}
                status={own.title ? 'error' : undefined}
                onChange={(event) => update(index, { ...field, title: event.target.value })}
              />
              <Tag>{dynamicText(t, `designer.type.${field.type}`, field.type)}</Tag>
              {field.required && <Tag color="red">{t('designer.prop.required')}</Tag>}
              <span style={{ flex: 1 }} />
              <Space size={0}>
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  aria-label={t('designer.moveUp')}
                  disabled={index === 0}
                  data-testid={`field-up-${at(index)}`}
                  onClick={() => onChange(move(fields, index, index - 1))}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  aria-label={t('designer.moveDown')}
                  disabled={index === fields.length - 1}
                  data-testid={`field-down-${at(index)}`}
                  onClick={() => onChange(move(fields, index, index + 1))}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('designer.editField')}
                  data-testid={`field-edit-${at(index)}`}
                  onClick={() => setEditing(index)}
                />
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('tables.ui.removeField')}
                  data-testid={`field-remove-${at(index)}`}
                  onClick={() => onChange(fields.filter((_item, i) => i !== index))}
                />
              </Space>
              {hasProblem && (
                <div
                  style={{ width: '100%' }}
                  className="ant-form-item-explain-error"
                  data-testid={`field-problem-${at(index)}`}
                >
                  {Object.values(own)
                    .map((key) => dynamicText(t, key))
                    .join('; ')}
                </div>
              )}
            </li>
          );
        })}
      </ul>
      <Select<FieldType>
        data-testid={column ? 'column-add' : 'add-field'}
        style={{ width: 200, marginTop: 8 }}
        prefix={<PlusOutlined />}
        placeholder={column ? t('designer.addColumn') : t('tables.ui.addField')}
        showSearch={{ optionFilterProp: 'label' }}
        value={null}
        options={typeOptions(t, column)}
        onChange={(type) => {
          if (!type) return;
          onChange([...fields, newField(type, freeName(fields, type), dynamicText(t, `designer.type.${type}`, type))]);
        }}
      />
      <Drawer
        open={editingField !== undefined}
        title={t('designer.editField')}
        size={Math.min(column ? 560 : 760, window.innerWidth)}
        onClose={() => setEditing(undefined)}
        extra={
          <Button type="primary" data-testid={column ? 'column-editor-done' : 'field-editor-done'} onClick={done}>
            {t('designer.close')}
          </Button>
        }
      >
        {editingField && editing !== undefined && (
          <FieldEditor
            field={editingField}
            onChange={(field) => update(editing, field)}
            problems={problemsUnder(problems, `${prefix}.${editing}`)}
            siblings={fields}
            tables={tables}
            column={column}
            columnList={FieldList}
          />
        )}
      </Drawer>
    </div>
  );
}

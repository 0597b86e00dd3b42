import { FIELD_REGISTRY, FIELD_TYPES, type Field } from '@gantry/shared';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../../../app/providers';
import { createQueryClient } from '../../../../app/queryClient';
import { draftProblems, newField, problemPlace, problemsUnder } from '../draft';
import '../texts';
import { FieldEditor } from './FieldEditor';
import { FieldList } from './FieldList';
import { optionSpecs } from './optionSpecs';

/** The editor with its state and the shared schema's check of a one-field draft, as the designer runs it. */
function Harness({ initial, onField }: { initial: Field; onField?: (field: Field) => void }) {
  const [field, setField] = useState(initial);
  const problems = problemsUnder(draftProblems({ fields: [field] }), 'fields.0');
  return (
    <AppProviders queryClient={createQueryClient()}>
      <FieldEditor
        field={field}
        onChange={(next) => {
          setField(next);
          onField?.(next);
        }}
        problems={problems}
        siblings={[field]}
        tables={[{ id: 't2', name: 'pumps' }]}
        columnList={FieldList}
      />
    </AppProviders>
  );
}

describe('field editor', () => {
  it('has an input for every option of every type the registry has (read off its options schema)', () => {
    for (const type of FIELD_TYPES) {
      const shape = (FIELD_REGISTRY[type].options as unknown as { shape: Record<string, unknown> }).shape;
      expect(optionSpecs(type).map((spec) => spec.key)).toEqual(Object.keys(shape));
    }
    expect(optionSpecs('number').find((spec) => spec.key === 'decimals')?.input).toEqual({
      kind: 'number',
      integer: true,
      min: 1,
      max: 9,
    });
    expect(optionSpecs('rating').find((spec) => spec.key === 'max')?.input).toEqual({
      kind: 'choice',
      values: [5, 10],
    });
  });

  it('a new field of every type passes the shared check; the editor renders its type’s option inputs', () => {
    for (const type of FIELD_TYPES) {
      if (type === 'lookup' || type === 'relation' || type === 'subTable') continue; // need other fields / tables
      expect(draftProblems({ fields: [newField(type, `${type}1`, type)] }), type).toEqual({});
    }
    for (const type of ['text', 'number', 'select', 'autoNumber', 'image', 'formula'] as const) {
      const { unmount } = render(<Harness initial={newField(type, `${type}1`, type)} />);
      const editor = screen.getByTestId('field-editor');
      for (const spec of optionSpecs(type))
        expect(within(editor).getByTestId(`opt-${spec.key}`), `${type}.${spec.key}`).toBeTruthy();
      unmount();
    }
  });

  it('shows the spec’s messages: identifier rules, min above max, repeated choice values, bad colours', () => {
    let last: Field | undefined;
    render(<Harness initial={newField('number', 'depth', 'Depth')} onField={(field) => (last = field)} />);
    fireEvent.change(screen.getByTestId('prop-name'), { target: { value: 'ownerId' } });
    expect(screen.getByText('字段标识不能以 Id 结尾（不区分大小写）')).toBeTruthy();
    fireEvent.change(screen.getByTestId('prop-name'), { target: { value: '1depth' } });
    const firstLetter = '字段标识须以英文字母开头';
    expect(screen.getByText(firstLetter)).toBeTruthy();
    fireEvent.change(screen.getByTestId('prop-name'), { target: { value: 'éclair' } });
    expect(screen.getByText(firstLetter)).toBeTruthy();
    fireEvent.change(screen.getByTestId('prop-name'), { target: { value: 'depth' } });
    expect(screen.getByTestId('prop-name').closest('.ant-form-item')?.className).not.toContain('has-error');

    fireEvent.change(screen.getByTestId('opt-min'), { target: { value: '10' } });
    fireEvent.change(screen.getByTestId('opt-max'), { target: { value: '5' } });
    expect(screen.getByText('最大值不能小于最小值')).toBeTruthy();
    expect(screen.getByText('最小值不能大于最大值')).toBeTruthy();
    expect(last?.options).toMatchObject({ min: 10, max: 5 });

    // Another type: the options start from that type's defaults.
    fireEvent.mouseDown(within(screen.getByTestId('prop-type')).getByRole('combobox'));
    fireEvent.click(screen.getAllByTitle('单选').at(-1) as HTMLElement);
    expect(last?.type).toBe('select');
    expect(last?.options).toEqual({ options: [{ value: 'a', label: 'A' }] });
    fireEvent.click(screen.getByTestId('choice-add'));
    fireEvent.change(screen.getByTestId('choice-value-1'), { target: { value: 'a' } });
    expect(screen.getByTestId('choice-problem-1').textContent).toBe('选项值不能重复');
    fireEvent.change(screen.getByTestId('choice-value-1'), { target: { value: 'b' } });
    fireEvent.change(screen.getByTestId('choice-colour-1'), { target: { value: 'reddish' } });
    expect(screen.getByTestId('choice-problem-1').textContent).toBe('颜色必须是有效的 hex、rgb 或 hsl 值');
    fireEvent.change(screen.getByTestId('choice-colour-1'), { target: { value: '#ff0000' } });
    expect(screen.queryByTestId('choice-problem-1')).toBeNull();
    expect(last?.options).toEqual({
      options: [
        { value: 'a', label: 'A' },
        { value: 'b', color: '#ff0000' },
      ],
    });
  });

  it('edits a sub-table’s columns with the same editor, without a nested sub-table type', () => {
    let last: Field | undefined;
    render(<Harness initial={newField('subTable', 'items', 'Items')} onField={(field) => (last = field)} />);
    fireEvent.mouseDown(within(screen.getByTestId('column-add')).getByRole('combobox'));
    expect(document.querySelectorAll('.ant-select-item-option[title="数字"]').length).toBe(1);
    expect(document.querySelectorAll('.ant-select-item-option[title="子表"]').length).toBe(0);
    fireEvent.click(document.querySelector('.ant-select-item-option[title="数字"]') as HTMLElement);
    expect(last?.type === 'subTable' && last.options.fields.map((column) => column.name)).toEqual(['number1']);
  });
});

/** A field list with the designer's check of its draft, as the basic config tab runs it. */
function ListHarness({ initial }: { initial: Field[] }) {
  const [fields, setFields] = useState(initial);
  return (
    <AppProviders queryClient={createQueryClient()}>
      <FieldList
        fields={fields}
        onChange={setFields}
        problems={draftProblems({ fields })}
        prefix="fields"
        tables={[]}
      />
    </AppProviders>
  );
}

describe('field list', () => {
  it('labels each identifier and title, and keeps the drawer open (完成) while the field has a problem', async () => {
    render(<ListHarness initial={[newField('select', 'kind', 'Kind')]} />);
    expect(screen.getByLabelText('第 1 个字段的标识')).toBe(screen.getByTestId('field-name-0'));
    expect(screen.getByLabelText('第 1 个字段的名称')).toBe(screen.getByTestId('field-title-0'));
    fireEvent.click(screen.getByTestId('field-edit-0'));
    fireEvent.click(await screen.findByTestId('choice-add'));
    fireEvent.change(screen.getByTestId('choice-value-1'), { target: { value: 'a' } });
    expect(screen.getByLabelText('第 2 个选项的值')).toBe(screen.getByTestId('choice-value-1'));
    fireEvent.click(screen.getByTestId('field-editor-done'));
    expect(await screen.findByText('请先修改此字段的问题')).toBeTruthy();
    expect(screen.getByTestId('choice-problem-1').textContent).toBe('选项值不能重复');
    expect(screen.getByTestId('field-editor').isConnected).toBe(true);
    // fixed: the problem goes as typed, and 完成 closes the drawer
    fireEvent.change(screen.getByTestId('choice-value-1'), { target: { value: 'b' } });
    // (the message leaves with antd's motion: gone once it ends)
    await waitFor(() => expect(screen.queryByTestId('choice-problem-1')).toBeNull());
    fireEvent.click(screen.getByTestId('field-editor-done'));
    await waitFor(() => expect(screen.queryByTestId('field-editor')).toBeNull());
  });
});

describe('draft check', () => {
  it('names the option a field of a type misses, not only the field', () => {
    const lookup = { ...newField('lookup', 'owner', 'Owner'), options: { relation: 'site' } } as Field;
    const site = { ...newField('relation', 'site', 'Site'), options: { table: 't2' } } as Field;
    expect(draftProblems({ fields: [site, lookup] })).toEqual({ 'fields.1.options.field': 'field.options' });
  });

  it('places a problem by the field, column, option or rule it is about, never by its path', () => {
    const kind = newField('select', 'kind', 'Kind');
    const items = {
      ...newField('subTable', 'items', 'Items'),
      options: { fields: [newField('number', 'qty', '')], noDuplicateRows: false },
    } as Field;
    const draft = { fields: [kind, items] };
    expect(problemPlace(draft, 'fields.0.options.options.3.color')).toEqual({ field: 'Kind (kind)', option: 4 });
    expect(problemPlace(draft, 'fields.1.options.fields.0.name')).toEqual({ field: 'Items (items) / qty' });
    expect(problemPlace(draft, 'rules.2')).toEqual({ rule: 3 });
    expect(problemPlace(draft, 'display.columns')).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import { fromRows, rowProblems, toRows } from './schemaForm';

describe('project extension schema editor rows', () => {
  it('become settings.projectExpand with the editable and batch-changeable lists, and back', () => {
    const built = fromRows(
      [
        { name: 'plant', title: 'Plant', widget: 'text', kind: 'password', required: true, editable: true },
        { name: 'stage', title: 'Stage', widget: 'selector', batch: true, choices: [{ value: 'run', label: '' }] },
      ],
      { layout: 'grid' },
    );
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.expand.editableFields).toEqual(['plant']);
    expect(built.expand.batchChangeFields).toEqual(['stage']);
    expect(built.expand.form).toEqual({ layout: 'grid' });
    expect(built.expand.schema.fields[0]).toMatchObject({ name: 'plant', kind: 'password', required: true });
    // a non-text widget keeps no text kind
    expect(built.expand.schema.fields[1]?.kind).toBe('normal');
    expect(toRows(built.expand)).toEqual([
      {
        name: 'plant',
        title: 'Plant',
        widget: 'text',
        kind: 'password',
        required: true,
        editable: true,
        batch: false,
        options: '',
      },
      {
        name: 'stage',
        title: 'Stage',
        widget: 'selector',
        kind: 'normal',
        required: false,
        editable: false,
        batch: true,
        choices: [{ value: 'run', label: '' }],
        multiple: false,
        options: '',
      },
    ]);
  });

  it('names the row and column of each problem: identifier, options JSON, options rules, lists', () => {
    const json = fromRows([{ name: 'a', title: 'A', widget: 'number', options: '{nope' }], {});
    expect(json).toEqual({ ok: false, fields: { 'fields.0.options': 'projectExpand.ui.invalidJson' } });
    const rules = fromRows(
      [
        { name: 'ok', title: 'Ok', widget: 'number', options: '{"min":5,"max":1}' },
        { name: 'endsid', title: 'Bad', widget: 'number' },
      ],
      {},
    );
    expect(rules.ok).toBe(false);
    if (rules.ok) return;
    expect(Object.keys(rules.fields).sort()).toEqual(['fields.0.options', 'fields.1.name']);
    // The 2nd batch-changeable field is the 3rd row.
    const rows = [{ name: 'a', batch: true }, { name: 'b' }, { name: 'c', batch: true }];
    expect(
      rowProblems([{ path: ['projectExpand', 'batchChangeFields', '1'], message: 'set by the system' }], rows),
    ).toEqual({ 'fields.2.batch': 'set by the system' });
  });
});

describe('selector options as rows', () => {
  it('become options.options with labels and multiple, and come back as rows', () => {
    const built = fromRows(
      [
        {
          name: 'stage',
          title: 'Stage',
          widget: 'selector',
          multiple: true,
          choices: [
            { value: 'plan', label: 'Planning' },
            { value: ' run ', label: ' ' },
            { value: 'done', label: 'Done' },
          ],
        },
      ],
      {},
    );
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.expand.schema.fields[0]?.options).toEqual({
      options: [{ value: 'plan', label: 'Planning' }, { value: 'run' }, { value: 'done', label: 'Done' }],
      multiple: true,
    });
    expect(toRows(built.expand)[0]).toMatchObject({
      choices: [
        { value: 'plan', label: 'Planning' },
        { value: 'run', label: '' },
        { value: 'done', label: 'Done' },
      ],
      multiple: true,
      options: '',
    });
  });

  it('puts a duplicate or empty value on its option row, no option on the widget, an array on the settings', () => {
    const duplicate = fromRows(
      [{ name: 'stage', title: 'Stage', widget: 'selector', choices: [{ value: 'a' }, { value: 'a' }] }],
      {},
    );
    expect(duplicate).toEqual({ ok: false, fields: { 'fields.0.choices.1.value': 'field.choiceDuplicate' } });
    const none = fromRows([{ name: 'stage', title: 'Stage', widget: 'selector', choices: [] }], {});
    expect(none).toEqual({ ok: false, fields: { 'fields.0.widget': 'field.choiceEmpty' } });
    const array = fromRows([{ name: 'n', title: 'N', widget: 'number', options: '[1,2]' }], {});
    expect(array).toEqual({ ok: false, fields: { 'fields.0.options': 'projectExpand.ui.optionsObject' } });
  });
});

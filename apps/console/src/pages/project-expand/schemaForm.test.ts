import { describe, expect, it } from 'vitest';
import { fromRows, rowProblems, toRows } from './schemaForm';

describe('project extension schema editor rows', () => {
  it('become settings.projectExpand with the editable and batch-changeable lists, and back', () => {
    const built = fromRows(
      [
        { name: 'plant', title: 'Plant', widget: 'text', kind: 'password', required: true, editable: true },
        { name: 'stage', title: 'Stage', widget: 'selector', batch: true, options: '{"options":[{"value":"run"}]}' },
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
        options: '{"options":[{"value":"run"}]}',
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

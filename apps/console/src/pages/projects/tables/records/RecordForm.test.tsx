import { FIELD_TYPES, type Field, type FieldType } from '@gantry/shared';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderPage, signIn } from '../../../../test/utils';
import { newField } from '../draft';
import '../texts';
import { RecordForm } from './RecordForm';

/** A field of `type` whose options need something of the others (a sub-table column, a relation). */
function fieldOf(type: FieldType): Field {
  const field = newField(type, `${type}1`, type);
  if (type === 'subTable') return { ...field, options: { fields: [newField('text', 'text1', 'T')] } } as Field;
  if (type === 'relation') return { ...field, options: { table: 't1', multiple: false } } as Field;
  if (type === 'lookup') return { ...field, options: { relation: 'relation1', field: 'text1' } } as Field;
  return field;
}

afterEach(() => vi.unstubAllGlobals());

describe('record form', () => {
  it('has an editor for every field type, only for the fields shown on create', () => {
    const fields = FIELD_TYPES.map(fieldOf);
    fields[0] = { ...fields[0], showOnCreate: false } as Field;
    signIn();
    mockFetch(() => ({ body: [] }));
    renderPage(<RecordForm definition={{ fields, display: { columns: 2 } }} mode="create" projectId="p1" preview />, {
      path: '/app/model/Project/:id/tables',
      url: '/app/model/Project/p1/tables',
    });
    for (const type of FIELD_TYPES.slice(1)) expect(screen.getByTestId(`record-input-${type}1`), type).toBeTruthy();
    expect(screen.queryByTestId('record-input-text1')).toBeNull();
    expect(screen.getByTestId('record-input-autoNumber1').textContent).toBe('保存后由系统生成');
  });

  it('offers the related table’s records by their display field', async () => {
    signIn();
    const { calls } = mockFetch((call) =>
      call.url.startsWith('/portal/rest/spm/tables/t2/records?')
        ? { body: [{ id: 'r9', data: { title: 'Pump 9' }, createTime: '2026-11-20T08:00:00.000Z' }] }
        : undefined,
    );
    const relation = {
      ...newField('relation', 'pump', 'Pump'),
      options: { table: 't2', multiple: false, display: 'title' },
    } as Field;
    renderPage(<RecordForm definition={{ fields: [relation], display: {} }} mode="create" projectId="p1" preview />, {
      path: '/app/model/Project/:id/tables',
      url: '/app/model/Project/p1/tables',
    });
    fireEvent.mouseDown(within(screen.getByTestId('record-input-pump')).getByRole('combobox'));
    expect(await screen.findByTitle('Pump 9')).toBeTruthy();
    expect(calls[0]?.headers['x-request-project']).toBe('p1');
  });

  it('chooses a region from the server’s tree, as deep as the field’s level, and shows it by name', async () => {
    signIn();
    const tree = [
      { c: '130000', n: '河北省', d: [{ c: '130100', n: '石家庄市', d: [{ c: '130102', n: '长安区' }] }] },
      { c: '440000', n: '广东省', d: [{ c: '441900', n: '东莞市' }] },
    ];
    mockFetch((call) => (call.url === '/portal/rest/spm/region' ? { body: tree } : undefined));
    const region = { ...newField('region', 'place', 'Place'), options: { level: 'city' } } as Field;
    let saved: Record<string, unknown> | undefined;
    renderPage(
      <RecordForm
        definition={{ fields: [region], display: {} }}
        mode="update"
        projectId="p1"
        initial={{ place: ['130000', '130100'] }}
        onSave={async (values) => {
          saved = values;
        }}
      />,
      { path: '/app/model/Project/:id/tables', url: '/app/model/Project/p1/tables' },
    );
    const input = screen.getByTestId('record-input-place');
    expect(await within(input).findByText('河北省 / 石家庄市')).toBeTruthy();
    fireEvent.mouseDown(within(input).getByRole('combobox'));
    const guangdong = await screen.findByText('广东省');
    // Open on the chosen path: at the city level no county column is offered below 石家庄市.
    expect(screen.getAllByText('石家庄市').length).toBeGreaterThan(0);
    expect(screen.queryByText('长安区')).toBeNull();
    fireEvent.click(guangdong);
    fireEvent.click(await screen.findByText('东莞市'));
    expect(await within(input).findByText('广东省 / 东莞市')).toBeTruthy();
    fireEvent.click(screen.getByTestId('record-save'));
    await vi.waitFor(() => expect(saved).toEqual({ place: ['440000', '441900'] }));
  });

  it('uploads a file into the field’s media library folder and keeps its address; refuses a wrong type before any upload', async () => {
    signIn();
    const sent: Array<{ url: string; file: File }> = [];
    vi.stubGlobal(
      'XMLHttpRequest',
      class {
        upload = { onprogress: null };
        onload: (() => void) | null = null;
        status = 0;
        statusText = '';
        responseText = '';
        private url = '';
        open(_method: string, url: string) {
          this.url = url;
        }
        setRequestHeader() {}
        send(body: FormData) {
          const file = body.get('file') as File;
          sent.push({ url: this.url, file });
          this.status = 200;
          this.responseText = JSON.stringify([{ path: `photos/wells/${file.name}`, name: file.name, size: file.size }]);
          this.onload?.();
        }
      },
    );
    const { calls } = mockFetch((call) => (call.url.endsWith('/mediaLibrary/dir') ? { body: {} } : undefined));
    const photo = {
      ...newField('image', 'photo', 'Photo'),
      options: {
        ...newField('image', 'photo', 'Photo').options,
        maxCount: 2,
        storage: 'folder',
        folder: '/photos/wells/',
      },
    } as Field;
    let saved: Record<string, unknown> | undefined;
    renderPage(
      <RecordForm
        definition={{ fields: [photo], display: {} }}
        mode="create"
        projectId="p1"
        onSave={async (values) => {
          saved = values;
        }}
      />,
      { path: '/app/model/Project/:id/tables', url: '/app/model/Project/p1/tables' },
    );
    const input = () =>
      screen.getByTestId('record-input-photo').querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input(), { target: { files: [new File(['notes'], 'notes.txt', { type: 'text/plain' })] } });
    expect(await screen.findByText('文件格式错误')).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(input(), { target: { files: [new File(['png'], 'pump.png', { type: 'image/png' })] } });
    const url = (await screen.findByTestId('record-input-photo-url-0')) as HTMLInputElement;
    // Each folder of the path made first (an existing one is no error), then the upload, named by its time.
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { path: 'photos' },
      { path: 'photos/wells' },
    ]);
    expect(sent[0]?.url).toContain('/mediaLibrary/upload?path=photos%2Fwells');
    expect(sent[0]?.file.name).toMatch(/^[0-9a-z]+-pump\.png$/);
    expect(url.value).toBe(`media:photos/wells/${sent[0]?.file.name}`);
    fireEvent.click(screen.getByTestId('record-save'));
    await vi.waitFor(() =>
      expect(saved).toEqual({
        photo: [{ url: `media:photos/wells/${sent[0]?.file.name}`, name: 'pump.png', size: 3, type: 'image/png' }],
      }),
    );
  });
});

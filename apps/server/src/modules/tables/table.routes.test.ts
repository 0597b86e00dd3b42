import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appWithTenants, createProject, SPM_URL } from '../../test/fixtures.js';
import type { TestApp } from '../../test/test-app.js';

let app: TestApp;
let acme: string;
let other: string;
let project: string;
let projects = 0;

// One app for the file (tenants are slow to make); each test has a project of its own, deleted after
// it so that the tenant's grant pool is free again.
beforeAll(async () => {
  [app, , acme, other] = await appWithTenants(['acme', 'other']);
  await createProject(app, other, { id: 'plant2' });
});
afterAll(() => app.close());
beforeEach(async () => {
  projects += 1;
  project = (await createProject(app, acme, { id: `plant${projects}x` })).id;
});
afterEach(async () => {
  const deleted = await app.call('DELETE', `${SPM_URL}/project/${project}`, acme);
  if (deleted.statusCode !== 200) throw new Error(`delete project: ${deleted.body}`);
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const q = (query: unknown) => encodeURIComponent(JSON.stringify(query));

function call(method: Method, url: string, payload?: unknown, token = acme, projectId = project) {
  return app.app.inject({
    method,
    url: `${SPM_URL}${url}`,
    headers: { authorization: `Bearer ${token}`, 'x-request-project': projectId, 'accept-language': 'en' },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function ok<T = Record<string, unknown>>(method: Method, url: string, payload?: unknown): Promise<T> {
  const response = await call(method, url, payload);
  if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}

const field = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  title: name,
  type,
  ...extra,
});

/** A published table with the given fields; answers its id. */
async function publishedTable(name: string, fields: unknown[], extra: Record<string, unknown> = {}) {
  const { id } = await ok<{ id: string }>('POST', '/tables', { name });
  await ok('PUT', `/tables/${id}/draft`, { fields, ...extra });
  await ok('POST', `/tables/${id}/publish`, {});
  return id;
}

describe('tables', () => {
  it('creates, renames and deletes tables; names are required and unique; the grant limits their number', async () => {
    const empty = await call('POST', '/tables', { name: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Table name cannot be empty');

    const created = await ok<{ id: string; state: string; version: number }>('POST', '/tables', { name: 'wells' });
    expect(created).toMatchObject({ state: 'draft', version: 0 });
    expect((await call('POST', '/tables', { name: 'WELLS' })).json().code).toBe('tableNameTaken');
    expect(await ok('PATCH', `/tables/${created.id}`, { name: 'pumps', title: 'Pumps' })).toMatchObject({
      name: 'pumps',
      title: 'Pumps',
    });
    await ok('POST', '/tables', { name: 'wells' });
    // The fixture's grant allows 2 tables.
    const third = await call('POST', '/tables', { name: 'valves' });
    expect(third.statusCode).toBe(409);
    expect(third.json()).toMatchObject({
      code: 'tableLimit',
      message: 'The project has as many tables as its grant allows (2)',
    });
    expect((await ok<unknown[]>('GET', '/tables')).length).toBe(2);

    const deleted = await ok('DELETE', `/tables/${created.id}`);
    expect(deleted).toEqual({ id: created.id, message: 'table deleted' });
    expect((await call('GET', `/tables/${created.id}`)).json()).toMatchObject({
      code: 'tableNotFound',
      message: 'get table failed',
    });
    await ok('POST', '/tables', { name: 'valves' });
  });

  it("answers 404 to another tenant, for the project's tables and records", async () => {
    const id = await publishedTable('wells', [field('name', 'text')]);
    const record = await ok<{ id: string }>('POST', `/tables/${id}/records`, { name: 'W1' });
    for (const [method, url] of [
      ['GET', '/tables'],
      ['GET', `/tables/${id}`],
      ['POST', '/tables'],
      ['DELETE', `/tables/${id}`],
      ['GET', `/tables/${id}/records`],
      ['GET', `/tables/${id}/records/${record.id}`],
      ['PATCH', `/tables/${id}/records/${record.id}`],
      ['DELETE', `/tables/${id}/records/${record.id}`],
    ] as const) {
      const response = await call(
        method,
        url,
        method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' },
        other,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    // Another project's id in the header does not reach this table either.
    expect((await call('GET', `/tables/${id}`, undefined, other, 'plant2')).statusCode).toBe(404);
    expect((await ok<{ data: unknown }>('GET', `/tables/${id}/records/${record.id}`)).data).toEqual({ name: 'W1' });
  });
});

describe('the generic data layer', () => {
  it("reads the designer's tables and records but leaves their writes to the designer calls", async () => {
    const id = await publishedTable('wells', [field('depth', 'number', { options: { min: 0 } })]);
    const record = await ok<{ id: string }>('POST', `/tables/${id}/records`, { depth: 5 });
    const core = (method: Method, url: string, payload?: unknown) =>
      app.app.inject({
        method,
        url: `/portal/rest/core${url}`,
        headers: { authorization: acme, 'x-request-project': project, 'accept-language': 'en' },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    expect((await core('GET', `/table_record/${record.id}`)).json()).toMatchObject({ table: id, data: { depth: 5 } });
    for (const [method, url, payload] of [
      ['POST', '/table_record', { table: id, data: { depth: -1 } }],
      ['PATCH', `/table_record/${record.id}`, { data: { depth: -1 } }],
      ['PUT', `/table_record/${record.id}`, { note: 'x' }],
      ['DELETE', `/table_record/${record.id}`, undefined],
      ['PATCH', `/table/${id}`, { name: 'renamed' }],
      ['POST', '/table', { draft: {}, name: 'sneaky' }],
      ['DELETE', `/table/${id}`, undefined],
    ] as const) {
      const response = await core(method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(409);
      expect(response.json().message).toBe('Tables and records are changed through the table designer calls only');
    }
    expect((await ok<{ data: unknown }>('GET', `/tables/${id}/records/${record.id}`)).data).toEqual({ depth: 5 });
    // Plain documents of these collections are still the data layer's.
    expect((await core('POST', '/table_record', { tableId: 'legacy', value: 1 })).statusCode).toBe(200);
  });

  it('makes no table: the designer lists every one, and only its call holds the grant (issue 32)', async () => {
    const core = (method: Method, url: string, payload?: unknown) =>
      app.app.inject({
        method,
        url: `/portal/rest/core${url}`,
        headers: { authorization: acme, 'x-request-project': project, 'accept-language': 'zh-CN' },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    const before = (await ok<unknown[]>('GET', '/tables')).length;
    for (const [method, url] of [
      ['POST', '/table'],
      ['POST', '/table'],
      ['POST', '/table'],
      ['PUT', '/table/sidedoor'],
    ] as const) {
      const response = await core(method, url, { id: url === '/table' ? undefined : 'sidedoor', name: 'side door' });
      expect(response.statusCode, `${method} ${url}`).toBe(409);
      expect(response.json().message).toBe('表和记录只能通过表设计器的接口修改');
    }
    expect(await ok<unknown[]>('GET', '/tables')).toHaveLength(before);
  });
});

describe('draft and publish', () => {
  it('checks the draft with the designer rules and names each problem', async () => {
    const { id } = await ok<{ id: string }>('POST', '/tables', { name: 'wells' });
    const response = await call('PUT', `/tables/${id}/draft`, {
      fields: [
        field('1st', 'text'),
        field('ownerId', 'text'),
        field('kind', 'select', { options: { options: [{ value: 'a' }, { value: 'a', color: 'blue' }] } }),
        field('depth', 'number', { options: { min: 10, max: 1 } }),
        // a record list could neither filter nor sort by these (issue 32)
        field('éclair', 'text'),
        field('\u202Ename', 'text'),
        field('na\u202Eme', 'text'),
      ],
      rules: [{ trigger: 'create', field: 'depth' }],
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.message).toBe('form validation failed');
    expect(body.fields).toEqual({
      'fields.0.name': 'The identifier must start with a letter A-Z or a-z',
      'fields.1.name': 'The identifier cannot end with Id',
      'fields.2.options.options.1.color': 'Colour input must be a valid hex, rgb or hsl value',
      'fields.2.options.options.1.value': 'Option values must be unique',
      'fields.3.options.max': 'Max cannot be below min',
      'fields.3.options.min': 'Minimum cannot exceed maximum',
      'fields.4.name': 'The identifier must start with a letter A-Z or a-z',
      'fields.5.name': 'The identifier must start with a letter A-Z or a-z',
      'fields.6.name': 'The identifier cannot hold invisible characters',
      'rules.0': 'Field rules and error hints need a trigger, a hint method, and field and content items all filled',
    });
    expect((await call('POST', `/tables/${id}/records`, {})).json().code).toBe('tableNotPublished');
  });

  it('publish failed names the reason', async () => {
    const { id } = await ok<{ id: string }>('POST', '/tables', { name: 'wells' });
    await ok('PUT', `/tables/${id}/draft`, {
      fields: [field('total', 'formula', { options: { expression: 'qty * price' } })],
    });
    const response = await call('POST', `/tables/${id}/publish`, {});
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('publish failed: The formula names a field that does not exist: qty');
    await ok('PUT', `/tables/${id}/draft`, { fields: [field('link', 'relation', { options: { table: 'nope' } })] });
    expect((await call('POST', `/tables/${id}/publish`, {})).json().message).toBe(
      'publish failed: The related table does not exist',
    );
  });

  it('a formula whose text holds NUL (U+0000) is refused at publish, naming the field, with or without records', async () => {
    const nul = field('tag', 'formula', { options: { expression: 'concat(name, "\\u0000")', result: 'text' } });
    const message =
      'publish failed: The formula of field tag holds a NUL character (U+0000): its result cannot be stored';
    const { id } = await ok<{ id: string }>('POST', '/tables', { name: 'nul_empty' });
    await ok('PUT', `/tables/${id}/draft`, { fields: [field('name', 'text'), nul] });
    const empty = await call('POST', `/tables/${id}/publish`, {});
    expect(empty.statusCode, empty.body).toBe(400);
    expect(empty.json().message).toBe(message);
    // A table with records: the new formula would be computed for each of them.
    const full = await publishedTable('nul_full', [field('name', 'text')]);
    await ok('POST', `/tables/${full}/records`, { name: 'well 1' });
    await ok('PUT', `/tables/${full}/draft`, { fields: [field('name', 'text'), nul] });
    const refused = await call('POST', `/tables/${full}/publish`, {});
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toBe(message);
    expect((await call('POST', `/tables/${full}/records`, { name: 'well 2' })).statusCode).toBe(200);
  });

  it('shows the difference to the published version and what it does to records, then applies it in one go', async () => {
    const id = await publishedTable('wells', [
      field('name', 'text'),
      field('depth', 'text'),
      field('note', 'text'),
      field('state', 'select', { options: { options: [{ value: 'open' }, { value: 'shut' }] } }),
    ]);
    for (const [name, depth, note] of [
      ['W1', '1200', 'a'],
      ['W2', 'deep', 'b'],
      ['W3', '800.5', undefined],
    ])
      await ok('POST', `/tables/${id}/records`, { name, depth, note, state: 'open' });

    const draft = {
      fields: [
        field('name', 'text'),
        field('depth', 'number', { options: { decimals: 1 } }),
        field('state', 'multiSelect', { options: { options: [{ value: 'open' }, { value: 'shut' }] } }),
        field('rating', 'rating'),
      ],
    };
    const saved = await ok<{ draftVersion: number; unpublishedChanges: boolean }>('PUT', `/tables/${id}/draft`, draft);
    expect(saved.unpublishedChanges).toBe(true);
    const preview = await ok<{ changes: unknown[]; draftVersion: number; records: number }>(
      'GET',
      `/tables/${id}/publish`,
    );
    expect(preview.draftVersion).toBe(saved.draftVersion);
    expect(preview.changes).toEqual([
      {
        field: 'depth',
        title: 'depth',
        change: 'typeChanged',
        from: 'text',
        to: 'number',
        values: 3,
        converted: 2,
        dropped: 1,
      },
      { field: 'note', title: 'note', change: 'removed', from: 'text', values: 2, converted: 0, dropped: 2 },
      {
        field: 'state',
        title: 'state',
        change: 'typeChanged',
        from: 'select',
        to: 'multiSelect',
        values: 3,
        converted: 3,
        dropped: 0,
      },
      { field: 'rating', title: 'rating', change: 'added', to: 'rating', values: 0, converted: 0, dropped: 0 },
    ]);
    // The preview changed nothing.
    const before = await ok<Array<{ data: Record<string, unknown> }>>(
      'GET',
      `/tables/${id}/records?query=${q({ sort: { name: 1 } })}`,
    );
    expect(before.map((record) => record.data.depth)).toEqual(['1200', 'deep', '800.5']);

    // A publish of an older draft than the one shown is refused.
    await ok('PUT', `/tables/${id}/draft`, draft);
    const stale = await call('POST', `/tables/${id}/publish`, { draftVersion: preview.draftVersion });
    expect(stale.json().code).toBe('tableDraftChanged');

    const published = await ok<{ table: { version: number; unpublishedChanges: boolean } }>(
      'POST',
      `/tables/${id}/publish`,
      {},
    );
    expect(published.table).toMatchObject({ version: 2, unpublishedChanges: false });
    const after = await ok<Array<{ data: Record<string, unknown> }>>(
      'GET',
      `/tables/${id}/records?query=${q({ sort: { name: 1 } })}`,
    );
    expect(after.map((record) => record.data)).toEqual([
      { name: 'W1', depth: 1200, state: ['open'] },
      { name: 'W2', state: ['open'] },
      { name: 'W3', depth: 800.5, state: ['open'] },
    ]);
  });
});

describe('records', () => {
  it('refuses values that break the field rules, with the spec messages, on every write', async () => {
    const id = await publishedTable(
      'people',
      [
        field('name', 'text', { required: true }),
        field('email', 'text', { options: { kind: 'email' }, unique: true }),
        field('mobile', 'text', { options: { kind: 'mobile' } }),
        field('card', 'text', { options: { kind: 'idCard' } }),
        field('age', 'number', { options: { min: 0, max: 150 } }),
        field('photo', 'image', { options: { maxSizeMB: 1 } }),
        field('items', 'subTable', {
          options: { noDuplicateRows: true, maxRows: 3, fields: [field('sku', 'text'), field('qty', 'number')] },
        }),
      ],
      {
        rules: [{ trigger: 'always', hint: 'toast', field: 'age', operator: 'lt', value: 18, content: 'adults only' }],
      },
    );
    const refused = await call('POST', `/tables/${id}/records`, {
      email: 'nobody',
      mobile: '123',
      card: '110105194912310021',
      age: 200,
      photo: [{ url: '/x.exe', name: 'x.exe', size: 10 }],
      items: [
        { sku: 'a', qty: 1 },
        { sku: 'a', qty: 1 },
      ],
      bogus: 1,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      code: 'recordInvalid',
      message: 'form validation failed',
      fields: {
        bogus: 'The table has no such field',
        name: 'This field is required',
        email: 'The email format is not valid',
        mobile: 'The mobile number format is not valid',
        card: 'The ID card number format is not valid',
        age: 'The value is above the maximum',
        'photo.0': 'File format error',
        items: 'duplicate field items and records in sub-table',
      },
    });
    const good = { name: 'Ann', email: 'ann@example.com', mobile: '13812345678', card: '11010519491231002X', age: 30 };
    const created = await ok<{ id: string; data: unknown }>('POST', `/tables/${id}/records`, good);
    expect(created.data).toEqual(good);

    const duplicate = await call('POST', `/tables/${id}/records`, { ...good, name: 'Bob' });
    expect(duplicate.json().fields).toEqual({ email: 'This value exists already: no duplicates' });
    const young = await call('PATCH', `/tables/${id}/records/${created.id}`, { age: 12 });
    expect(young.json()).toMatchObject({ message: 'adults only', fields: { age: 'adults only' } });
    const bad = await call('PUT', `/tables/${id}/records/${created.id}`, { email: 'ann@example.com' });
    expect(bad.json().fields).toEqual({ name: 'This field is required' });
    expect((await call('PATCH', `/tables/${id}/records/${created.id}`, { age: -1 })).json().fields).toEqual({
      age: 'The value is below the minimum',
    });
    expect(await ok('PATCH', `/tables/${id}/records/${created.id}`, { age: 31, mobile: null })).toMatchObject({
      data: { name: 'Ann', email: 'ann@example.com', card: '11010519491231002X', age: 31 },
    });
    expect(await ok('DELETE', `/tables/${id}/records/${created.id}`)).toEqual({
      id: created.id,
      message: 'record deleted',
    });
    expect((await call('GET', `/tables/${id}/records/${created.id}`)).json().message).toBe('get data failed');
  });

  it('computes formulas, lookups and user fields on write; filters and sorts by field', async () => {
    const products = await publishedTable('products', [
      field('label', 'text'),
      field('price', 'number', { options: { decimals: 2 } }),
    ]);
    const widget = await ok<{ id: string }>('POST', `/tables/${products}/records`, { label: 'widget', price: 2.5 });
    const orders = await publishedTable('orders', [
      field('product', 'relation', { options: { table: products } }),
      field('price', 'lookup', { options: { relation: 'product', field: 'price' } }),
      field('qty', 'number', { batchEdit: true }),
      field('total', 'formula', { options: { expression: 'qty * price', decimals: 2 } }),
      field('big', 'formula', { options: { expression: 'total > 10', result: 'boolean' } }),
      field('by', 'user'),
    ]);
    const order = await ok<{ id: string; data: Record<string, unknown> }>('POST', `/tables/${orders}/records`, {
      product: widget.id,
      qty: 3,
      total: 1e9,
    });
    expect(order.data).toMatchObject({ product: widget.id, price: 2.5, qty: 3, total: 7.5, big: false });
    expect(typeof order.data.by).toBe('string');
    const more = await ok<{ data: unknown }>('PATCH', `/tables/${orders}/records/${order.id}`, { qty: 5 });
    expect(more.data).toMatchObject({ total: 12.5, big: true });
    expect((await call('POST', `/tables/${orders}/records`, { product: 'missing', qty: 1 })).json().fields).toEqual({
      product: 'The related record does not exist',
    });

    await ok('POST', `/tables/${orders}/records`, { product: widget.id, qty: 1 });
    const filtered = await ok<Array<{ data: { qty: number } }>>(
      'GET',
      `/tables/${orders}/records?query=${q({ filter: { qty: { gte: 2 } } })}`,
    );
    expect(filtered.map((record) => record.data.qty)).toEqual([5]);
    const sorted = await call('GET', `/tables/${orders}/records?query=${q({ sort: { qty: 1 }, withCount: true })}`);
    expect(sorted.headers.count).toBe('2');
    expect(sorted.json().map((record: { data: { qty: number } }) => record.data.qty)).toEqual([1, 5]);
    expect((await call('GET', `/tables/${orders}/records?query=${q({ filter: { nope: 1 } })}`)).statusCode).toBe(400);

    const ids = sorted.json().map((record: { id: string }) => record.id);
    expect(await ok('PATCH', `/tables/${orders}/records`, { ids, values: { qty: 4 } })).toEqual({ updated: 2 });
    const batch = await ok<Array<{ data: { total: number } }>>('GET', `/tables/${orders}/records`);
    expect(batch.map((record) => record.data.total)).toEqual([10, 10]);
    const notBatch = await call('PATCH', `/tables/${orders}/records`, { ids, values: { product: widget.id } });
    expect(notBatch.json().fields).toEqual({ product: 'This field is read-only' });
  });

  it('lists each record as its own call answers it, projected by `fields`', async () => {
    const wells = await publishedTable('wells', [
      field('name', 'text'),
      field('depth', 'number', { options: { decimals: 2 } }),
      field('state', 'select', { options: { options: [{ value: 'open' }, { value: 'shut' }] } }),
      field('since', 'date'),
      field('ok', 'boolean'),
      field('notes', 'text'),
    ]);
    const made = [
      { name: 'Wēll "α" \\ <1>', depth: 1.5, state: 'open', since: '2024-05-01', ok: true, notes: 'a\nb' },
      { name: 'well 2', depth: 1200, ok: false },
      { name: 'well 3' },
    ];
    for (const values of made) await ok('POST', `/tables/${wells}/records`, values);
    const listed = await call('GET', `/tables/${wells}/records?query=${q({ sort: { name: 1 } })}`);
    expect(listed.headers['content-type']).toBe('application/json; charset=utf-8');
    const items = listed.json<Array<{ id: string; data: Record<string, unknown>; createTime: string }>>();
    expect(items.map((item) => item.data.name)).toEqual(made.map((values) => values.name));
    for (const item of items) expect(item).toEqual(await ok('GET', `/tables/${wells}/records/${item.id}`));
    expect(items[0]?.data).toEqual(made[0]);

    const projected = await ok<Array<{ id: string; data: Record<string, unknown> }>>(
      'GET',
      `/tables/${wells}/records?query=${q({ sort: { name: 1 }, fields: ['name', 'depth'] })}`,
    );
    expect(projected.map((item) => item.data)).toEqual([
      { name: made[0]?.name, depth: 1.5 },
      { name: 'well 2', depth: 1200 },
      { name: 'well 3' },
    ]);
    expect(projected[0]).toMatchObject({ id: items[0]?.id, createTime: items[0]?.createTime });
  });

  it('gives auto-numbers without gaps or duplicates under 50 concurrent inserts', async () => {
    const id = await publishedTable('tickets', [
      field('no', 'autoNumber', { options: { prefix: 'T-', digits: 4, start: 1, step: 1 } }),
      field('note', 'text'),
    ]);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call('POST', `/tables/${id}/records`, { note: `n${i}` })),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(50).fill(200));
    const numbers = responses.map((response) => response.json().data.no as string).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `T-${String(i + 1).padStart(4, '0')}`));
    // A refused insert takes no number.
    await ok('PUT', `/tables/${id}/draft`, {
      fields: [
        field('no', 'autoNumber', { options: { prefix: 'T-', digits: 4 } }),
        field('note', 'text', { required: true }),
      ],
    });
    await ok('POST', `/tables/${id}/publish`, {});
    expect((await call('POST', `/tables/${id}/records`, {})).statusCode).toBe(400);
    expect((await ok<{ data: { no: string } }>('POST', `/tables/${id}/records`, { note: 'x' })).data.no).toBe('T-0051');
  });

  it('takes a region only as a path of the reference data, as deep as the field asks; serves the tree', async () => {
    const tree = await call('GET', '/region');
    expect(tree.statusCode).toBe(200);
    const provinces = tree.json<Array<{ c: string; n: string; d?: Array<{ c: string; n: string; d?: unknown[] }> }>>();
    expect(provinces.length).toBeGreaterThanOrEqual(34);
    const hebei = provinces.find((province) => province.c === '130000');
    expect(hebei?.n).toBe('河北省');
    expect(hebei?.d?.find((city) => city.c === '130100')?.n).toBe('石家庄市');
    expect((await app.app.inject({ method: 'GET', url: `${SPM_URL}/region` })).statusCode).toBe(401);

    const id = await publishedTable('sites', [
      field('county', 'region'),
      field('city', 'region', { options: { level: 'city' } }),
    ]);
    const write = (data: Record<string, unknown>) => call('POST', `/tables/${id}/records`, data);
    const saved = await write({ county: ['130000', '130100', '130102'], city: ['130000', '130100'] });
    expect(saved.statusCode, saved.body).toBe(200);
    // A city without counties ends its path; a municipality's districts sit right below it.
    expect((await write({ county: ['440000', '441900'] })).statusCode).toBe(200);
    expect((await write({ county: ['110000', '110101'] })).statusCode).toBe(200);
    for (const county of [
      ['130000', '140100', '140105'], // a city of another province
      ['130000', '130100', '999999'], // no such county
      ['130000', '130100'], // stops above the field's level
      ['130000', '130100', '130102', '130104'], // deeper than the level
    ]) {
      const refused = await write({ county });
      expect(refused.statusCode, JSON.stringify(county)).toBe(400);
      expect(refused.json().fields).toEqual({ county: 'The region is not valid' });
    }
    expect((await write({ city: ['130000', '130100', '130102'] })).statusCode).toBe(400);
  });
});

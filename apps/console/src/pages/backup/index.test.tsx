import { BACKUP_LIMITS, type BackupView } from '@gantry/shared';
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { uploadPercent } from '../../components/backups/UploadDialog';
import { backupTaskEnded, watchBackupTask } from '../../services/backupTasks';
import { toast } from '../../services/feedback';
import type { TaskProgress } from '../../services/progressSocket';
import { getUser } from '../../services/session';
import { captureDownloads, fakeXhr, type MockCall, mockFetch, renderPage, signIn } from '../../test/utils';
import BackupPage from '.';

configure({ asyncUtilTimeout: 5000 });

const BACKUP = '/portal/rest/spm/proxy/core/backup';

function record(id: string, extra: Partial<BackupView> = {}): BackupView {
  return {
    id,
    projectId: 'p1',
    name: `backup ${id}`,
    type: 'export',
    status: 'succeed',
    item: { fileServer: true, html: false, mongodb: true },
    moduleRules: { table: 0, user: 0 },
    excludedDirs: [],
    documents: { table: 3, user: 1 },
    size: 12,
    bytes: 12 * 1024 * 1024,
    file: `${id}.zip`,
    restoreFile: null,
    sourceProjectId: 'p1',
    safety: false,
    createTime: '2026-11-20T08:00:00.000Z',
    updateTime: '2026-11-21T09:30:00.000Z',
    ...extra,
  };
}

const queryOf = (call: MockCall | undefined) => {
  const text = new URL(call?.url ?? '/', 'http://x').searchParams.get('query');
  return text === null ? undefined : (JSON.parse(text) as Record<string, unknown>);
};

function server(options: { rows?: BackupView[]; sizes?: Record<string, number> } = {}) {
  const rows = options.rows ?? [record('b1'), record('b2', { safety: true })];
  const sizes = options.sizes ?? { fileServer: 5, html: 1, mongodb: 2 };
  return mockFetch((call): { status?: number; body?: unknown; headers?: Record<string, string> } | undefined => {
    const path = call.url.split('?')[0];
    if (path === '/portal/rest/spm/project/available') return { body: [{ id: 'p1', name: 'Plant' }] };
    if (path === BACKUP && call.method === 'GET') return { body: rows, headers: { count: String(rows.length) } };
    if (path === `${BACKUP}/getSizeAndTime`)
      return { body: Object.entries(sizes).map(([name, size]) => ({ name, size, bytes: size * 1048576, count: 1 })) };
    if (path === `${BACKUP}/export` || path === `${BACKUP}/import`) return { body: { id: 't1', requestId: 'r1' } };
    if (path === `${BACKUP}/import/plan`)
      return {
        body: {
          modules: [{ module: 'table', rule: 2, added: 3, overwritten: 0, kept: 0, deleted: 7 }],
          files: [{ kind: 'fileServer', added: 4, replaced: 1, removed: 2 }],
        },
      };
    if (path === '/portal/rest/spm/proxy/core/mediaLibrary/all/dir')
      return {
        body: [
          { path: 'images', name: 'images', type: 'dir', child: [{ path: 'images/big', name: 'big', type: 'dir' }] },
          { path: 'docs', name: 'docs', type: 'dir', child: [] },
        ],
      };
    if (path === `${BACKUP}/download/b1`) return { body: 'PK…', headers: { 'content-type': 'application/zip' } };
    if (call.method === 'DELETE' || call.method === 'PATCH') return { body: {} };
    return undefined;
  });
}

function open(url = '/app/backup?projectId=p1') {
  signIn();
  return renderPage(<BackupPage />, { path: '/app/backup', url });
}

const inputOf = (testId: string) => {
  const box = screen.getByTestId(testId);
  const input = box.matches('input') ? box : box.querySelector('input');
  if (!(input instanceof HTMLInputElement)) throw new Error(`no input in ${testId}`);
  return input;
};
const check = (testId: string) => fireEvent.click(inputOf(testId));
const checked = (testId: string) => inputOf(testId).checked;

afterEach(() => {
  vi.useRealTimers();
});

describe('backup list', () => {
  it("asks for the project's backups newest first, with the project header, and batch deletes the chosen rows", async () => {
    const { calls } = server();
    open();
    expect(await screen.findByTestId('backup-name-b1')).toBeTruthy();
    const list = calls.find((c) => c.url.startsWith(`${BACKUP}?`));
    expect(list?.headers['x-request-project']).toBe('p1');
    expect(queryOf(list)).toEqual({
      filter: { type: 'export', status: 'succeed' },
      sort: { createTime: -1 },
      skip: 0,
      limit: 10,
      withCount: true,
    });
    expect(screen.getByText('还原前自动备份')).toBeTruthy();
    const batch = screen.getByTestId('backup-batch-delete');
    expect((batch as HTMLButtonElement).disabled).toBe(true);
    for (const id of ['b1', 'b2']) {
      const row = screen.getByTestId(`backup-row-${id}`);
      fireEvent.click(row.querySelector('input[type="checkbox"]') as HTMLInputElement);
    }
    await waitFor(() => expect((batch as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(batch);
    fireEvent.click(await screen.findByTestId('backup-delete-ok'));
    expect(await screen.findByText('批量删除成功')).toBeTruthy();
    const deletes = calls.filter((c) => c.method === 'DELETE');
    expect(deletes.map((c) => c.url)).toEqual([`${BACKUP}/b1?projectId=p1`, `${BACKUP}/b2?projectId=p1`]);
    expect(deletes[0]?.headers['x-request-project']).toBe('p1');
  });

  it('deletes one row with its own message, and filters by name', async () => {
    const { calls } = server();
    open();
    fireEvent.click(await screen.findByTestId('backup-delete-b1'));
    fireEvent.click(await screen.findByTestId('backup-delete-ok'));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    fireEvent.change(within(screen.getByTestId('backup-search')).getByRole('searchbox'), {
      target: { value: 'night.run' },
    });
    await waitFor(() =>
      expect(
        calls.some((c) => JSON.stringify(queryOf(c)?.filter ?? {}).includes('"name":{"like":"night\\\\.run"}')),
      ).toBe(true),
    );
  });

  it("the 'reduction' tab lists the restores with the restore time from updateTime", async () => {
    const { calls } = server({ rows: [record('r1', { type: 'import', moduleRules: { table: 2, user: 2 } })] });
    open('/app/backup?projectId=p1&tab=reduction');
    expect((await screen.findAllByText('还原时间')).length).toBeGreaterThan(0);
    // The rule the restore applied.
    expect((await screen.findByTestId('backup-rule-r1-replace')).textContent).toBe('清空后新增');
    expect(await screen.findByText(/2026-11-21 \d\d:30:00/)).toBeTruthy();
    expect(queryOf(calls.find((c) => c.url.startsWith(`${BACKUP}?`)))?.filter).toEqual({
      type: 'import',
      status: 'succeed',
    });
    expect(screen.queryByTestId('backup-restore-r1')).toBeNull();
  });
});

describe('creating a backup', () => {
  it('names it after the project and the time, requires data content with data, applies the links', async () => {
    const { calls } = server();
    open('/app/backup?projectId=p1&action=create');
    const name = (await screen.findByTestId('backup-name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toMatch(/^Plant_\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/));
    check('backup-kind-mongodb');
    const all = screen.getByTestId('backup-kind-all');
    const indeterminate = () =>
      all.closest('.ant-checkbox-indeterminate') !== null || all.querySelector('.ant-checkbox-indeterminate') !== null;
    await waitFor(() => expect(indeterminate()).toBe(true));
    await screen.findByTestId('backup-modules');
    // Groups and modules are named in the user's language, never by their keys.
    expect(screen.getByTestId('backup-modules').textContent).toContain('用户与权限');
    expect(screen.getByTestId('backup-modules').textContent).toContain('表记录');
    expect(screen.getByTestId('backup-modules').textContent).not.toContain('table_record');
    expect(screen.getByTestId('backup-modules').textContent).not.toContain('dashboard');
    fireEvent.click(screen.getByTestId('backup-create-ok'));
    expect(await screen.findByText('数据内容必填')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/export'))).toBe(false);

    check('backup-module-data-table_record');
    expect(checked('backup-module-auth-user')).toBe(true);
    expect(checked('backup-module-auth-role')).toBe(true);
    expect(checked('backup-group-setting')).toBe(true);
    check('backup-group-dataset_view');
    expect(checked('backup-group-dataset')).toBe(true);
    expect(checked('backup-group-data_interface')).toBe(true);
    check('backup-module-dashboards-site');
    for (const module of ['dashboard', 'catalog', 'component'])
      expect(checked(`backup-module-dashboards-${module}`)).toBe(true);
    expect(checked('backup-module-report-catalog')).toBe(true);

    check('backup-kind-fileServer');
    fireEvent.click(await screen.findByTestId('backup-pick-folders'));
    fireEvent.change(within(await screen.findByTestId('backup-folders-search')).getByRole('searchbox'), {
      target: { value: 'bi' },
    });
    await waitFor(() => expect(screen.queryByTestId('backup-folder-docs')).toBeNull());
    const folder = await screen.findByTestId('backup-folder-images/big');
    fireEvent.click(folder.closest('.ant-tree-treenode')?.querySelector('.ant-tree-checkbox') ?? folder);
    fireEvent.click(screen.getByTestId('backup-folders-ok'));
    expect(await screen.findByTestId('backup-excluded-images/big')).toBeTruthy();
    await waitFor(() =>
      expect(
        calls.some((c) => c.url === `${BACKUP}/getSizeAndTime?excludedDirs=${encodeURIComponent('["images/big"]')}`),
      ).toBe(true),
    );
    expect(screen.getByTestId('backup-size-total').textContent).toContain('7 MB');

    fireEvent.change(name, { target: { value: 'nightly' } });
    fireEvent.click(screen.getByTestId('backup-create-ok'));
    await waitFor(() => expect(calls.some((c) => c.url.startsWith(`${BACKUP}/export?`))).toBe(true));
    const start = calls.find((c) => c.url.startsWith(`${BACKUP}/export?`));
    expect(new URL(start?.url ?? '', 'http://x').searchParams.get('projectId')).toBe('p1');
    expect(start?.headers['x-request-project']).toBe('p1');
    const query = queryOf(start);
    expect(query).toMatchObject({
      name: 'nightly',
      item: { fileServer: true, mongodb: true },
      excludedDirs: ['images/big'],
    });
    expect(Object.keys(query?.item as object)).toEqual(['fileServer', 'mongodb']);
    expect(Object.keys(query?.moduleRules as object).sort()).toEqual(
      [
        'catalog',
        'component',
        'dashboard',
        'data_interface',
        'dataset',
        'dataset_view',
        'role',
        'setting',
        'site',
        'table_record',
        'user',
      ].sort(),
    );
    expect(Object.values(query?.moduleRules as object).every((rule) => rule === 0)).toBe(true);
    expect(typeof query?.requestId).toBe('string');
  });

  it('refuses empty content', async () => {
    const { calls } = server();
    open('/app/backup?projectId=p1&action=create');
    await screen.findByTestId('backup-name');
    fireEvent.click(screen.getByTestId('backup-create-ok'));
    expect(await screen.findByText('备份内容不能为空')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/export'))).toBe(false);
  });

  it('opens the creation dialog when a menu asks again while the page is open', async () => {
    server();
    const { router } = open();
    await screen.findByTestId('backup-row-b1');
    expect(screen.queryByTestId('backup-name')).toBeNull();
    await act(() => router.navigate('/app/backup?projectId=p1&action=create'));
    expect(await screen.findByTestId('backup-name')).toBeTruthy();
  });

  it('warns above 2048 MB and starts only once confirmed; no html warning when backing up', async () => {
    const { calls } = server({ sizes: { fileServer: 2000, html: 100, mongodb: 1 } });
    open('/app/backup?projectId=p1&action=create');
    await screen.findByTestId('backup-name');
    check('backup-kind-all');
    await screen.findByTestId('backup-modules');
    expect(screen.queryByText('还原前端页面会替换项目的前端文件，可能改变页面样式')).toBeNull();
    check('backup-group-rule');
    await waitFor(() => expect(screen.getByTestId('backup-size-total').textContent).toContain('2101 MB'));
    fireEvent.click(screen.getByTestId('backup-create-ok'));
    fireEvent.click(await screen.findByTestId('backup-large-ok'));
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith(`${BACKUP}/export?`))).toHaveLength(1));
  });
});

/** An XMLHttpRequest that reports `loadedMb` of 4 MB sent; `finish()` answers with a record. */
const uploadXhr = (loadedMb = 3) =>
  fakeXhr({ progress: [[loadedMb * 1048576, 4 * 1048576]], body: { ...record('b9'), status: 'OK' } });

describe('download, upload', () => {
  it("keeps the download disabled while 'add code' has no code, then fetches the file with it and saves it", async () => {
    const { calls } = server();
    const downloads = captureDownloads();
    open();
    fireEvent.click(await screen.findByTestId('backup-download-b1'));
    const ok = (await screen.findByTestId('backup-download-ok')) as HTMLButtonElement;
    expect(ok.disabled).toBe(false);
    check('backup-add-code');
    await waitFor(() => expect(ok.disabled).toBe(true));
    expect(screen.getByTestId('backup-code-hint').textContent).toBe('如需添加验证码，请先填写');
    fireEvent.change(screen.getByTestId('backup-code'), { target: { value: 's3cret' } });
    await waitFor(() => expect(ok.disabled).toBe(false));
    fireEvent.click(ok);
    await waitFor(() => expect(downloads.map((d) => d.name)).toEqual(['backup b1.zip']));
    expect(await downloads[0]?.blob.text()).toBe('"PK…"');
    const fetched = calls.find((c) => c.url.startsWith(`${BACKUP}/download/`));
    expect(fetched?.url).toBe(`${BACKUP}/download/b1?password=s3cret`);
    expect(fetched?.headers['x-request-project']).toBe('p1');
    expect(fetched?.headers.Authorization).toBe('Bearer admin-token');
  });

  it('refuses a file that is not a zip, and shows the progress of an upload', async () => {
    server();
    const FakeXhr = uploadXhr();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    open('/app/backup?projectId=p1&action=upload');
    const input = await screen.findByTestId('backup-upload-input');
    fireEvent.change(input, { target: { files: [new File(['x'], 'plant.tar', { type: 'application/x-tar' })] } });
    expect(await screen.findByText('上传文件格式错误，请上传压缩文件！')).toBeTruthy();
    expect(FakeXhr.sent).toHaveLength(0);

    // Any zip's name uploads (the server names the record, uploadRecordName).
    check('backup-add-code');
    fireEvent.change(screen.getByTestId('backup-code'), { target: { value: 'abc' } });
    fireEvent.change(input, { target: { files: [new File(['x'], 'plant-1 (2).zip', { type: 'application/zip' })] } });
    expect((await screen.findByTestId('backup-upload-progress')).textContent).toContain('75%');
    expect(FakeXhr.sent[0]?.url).toBe(`${BACKUP}/upload?projectId=p1&password=abc`);
    expect(FakeXhr.sent[0]?.headers['x-request-project']).toBe('p1');
    expect((FakeXhr.sent[0]?.body.get('file') as File | null)?.name).toBe('plant-1 (2).zip');
    FakeXhr.finish?.();
    expect(await screen.findByText('上传成功')).toBeTruthy();
  });

  it('asks before uploading a file over 2 GB, and sends it only when confirmed', async () => {
    server();
    const FakeXhr = uploadXhr();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    open('/app/backup?projectId=p1&action=upload');
    const input = await screen.findByTestId('backup-upload-input');
    const big = () => {
      const file = new File(['x'], 'plant_big.zip', { type: 'application/zip' });
      Object.defineProperty(file, 'size', { value: BACKUP_LIMITS.largeUploadBytes + 1 });
      return file;
    };
    fireEvent.change(input, { target: { files: [big()] } });
    const cancelled = await screen.findByTestId('backup-upload-large-ok');
    expect(FakeXhr.sent).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(FakeXhr.sent).toHaveLength(0);

    fireEvent.change(input, { target: { files: [big()] } });
    // A new confirmation (the cancelled one may still be leaving).
    const fresh = () => screen.queryAllByTestId('backup-upload-large-ok').find((button) => button !== cancelled);
    await waitFor(() => expect(fresh()).toBeTruthy());
    expect(FakeXhr.sent).toHaveLength(0);
    fireEvent.click(fresh() as HTMLElement);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    expect((FakeXhr.sent[0]?.body.get('file') as File | null)?.name).toBe('plant_big.zip');
  });

  it('says the file is verified once it is sent whole, until the server answers', async () => {
    server();
    const FakeXhr = uploadXhr(4);
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    open('/app/backup?projectId=p1&action=upload');
    const input = await screen.findByTestId('backup-upload-input');
    fireEvent.change(input, { target: { files: [new File(['x'], 'plant.zip', { type: 'application/zip' })] } });
    expect((await screen.findByTestId('backup-upload-verifying')).textContent).toContain('文件已上传，正在校验备份…');
    expect((screen.getByTestId('backup-upload-pick') as HTMLButtonElement).disabled).toBe(true);
    FakeXhr.finish?.();
    expect(await screen.findByText('上传成功')).toBeTruthy();
  });

  it("leaves a file over 1,024 MB to the browser's own download (a link with the token)", async () => {
    const { calls } = server({ rows: [record('b3', { size: 2048 })] });
    const links: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      links.push(`${this.download}|${this.getAttribute('href')}`);
    });
    open();
    fireEvent.click(await screen.findByTestId('backup-download-b3'));
    check('backup-add-code');
    fireEvent.change(screen.getByTestId('backup-code'), { target: { value: 'k' } });
    const ok = screen.getByTestId('backup-download-ok') as HTMLButtonElement;
    await waitFor(() => expect(ok.disabled).toBe(false));
    fireEvent.click(ok);
    expect(links).toEqual([`backup b3.zip|${BACKUP}/download/b3?x-request-project=p1&password=k&token=admin-token`]);
    expect(calls.some((c) => c.url.includes('/download/'))).toBe(false);
  });

  it('says the download is being prepared until the server answers', async () => {
    let answer: (() => void) | undefined;
    const ready = new Promise<void>((resolve) => {
      answer = resolve;
    });
    mockFetch(async (call): Promise<{ body?: unknown; headers?: Record<string, string> } | undefined> => {
      const path = call.url.split('?')[0];
      if (path === '/portal/rest/spm/project/available') return { body: [{ id: 'p1', name: 'Plant' }] };
      if (path === BACKUP) return { body: [record('b1')], headers: { count: '1' } };
      if (path === `${BACKUP}/download/b1`) {
        await ready;
        return { body: 'PK', headers: { 'content-length': '4' } };
      }
      return undefined;
    });
    const downloads = captureDownloads();
    open();
    fireEvent.click(await screen.findByTestId('backup-download-b1'));
    fireEvent.click(await screen.findByTestId('backup-download-ok'));
    expect((await screen.findByTestId('backup-download-preparing')).textContent).toBe('正在准备下载文件…');
    expect(downloads).toHaveLength(0);
    answer?.();
    await waitFor(() => expect(downloads.map((d) => d.name)).toEqual(['backup b1.zip']));
  });

  it('counts upload progress as loaded MB over total MB', () => {
    expect(uploadPercent(512 * 1024, 2 * 1024 * 1024)).toBe(25);
    expect(uploadPercent(0, 0)).toBe(0);
    expect(BACKUP_LIMITS.largeUploadBytes).toBe(2 * 1024 ** 3);
  });
});

describe('restoring', () => {
  it('offers only the parts the backup holds, none chosen; requires modules and rule with data, shows the dry run, confirms the replace', async () => {
    const { calls } = server();
    open();
    fireEvent.click(await screen.findByTestId('backup-restore-b1'));
    await screen.findByTestId('backup-restore-ok');
    expect(screen.queryByTestId('backup-kind-html')).toBeNull();
    expect(checked('backup-kind-fileServer')).toBe(false);
    expect(checked('backup-kind-mongodb')).toBe(false);
    fireEvent.click(screen.getByTestId('backup-restore-ok'));
    expect(await screen.findByText('备份内容不能为空')).toBeTruthy();
    check('backup-kind-all');
    // The data modules the backup holds, by name, none chosen; then the rule.
    const modules = await screen.findByTestId('backup-modules');
    expect(modules.textContent).toContain('数据表');
    expect(modules.textContent).not.toContain('仪表盘');
    expect(checked('backup-module-data-table')).toBe(false);
    fireEvent.click(screen.getByTestId('backup-restore-ok'));
    expect(await screen.findByText('数据内容必填')).toBeTruthy();
    expect(await screen.findByText('还原规则必填')).toBeTruthy();
    expect(calls.some((c) => c.url.startsWith(`${BACKUP}/import`))).toBe(false);
    check('backup-module-data-table');
    expect(checked('backup-module-auth-user')).toBe(true);

    const select = screen.getByTestId('backup-rule');
    fireEvent.mouseDown(within(select).queryByRole('combobox') ?? select);
    fireEvent.click((await screen.findAllByText('清空后新增')).at(-1) as HTMLElement);
    const plan = await screen.findByTestId('backup-plan');
    expect(plan.textContent).toContain('数据表');
    expect(screen.getByTestId('backup-plan-fileServer').textContent).toBe('媒体库文件: 新增 4 · 替换 1 · 删除 2');
    const planCall = calls.find((c) => c.url.startsWith(`${BACKUP}/import/plan?`));
    expect(queryOf(planCall)).toMatchObject({
      id: 'b1',
      name: 'backup b1',
      item: { fileServer: true, mongodb: true },
      moduleRules: { table: 2, user: 2 },
    });

    fireEvent.click(screen.getByTestId('backup-restore-ok'));
    fireEvent.click(await screen.findByTestId('backup-replace-ok'));
    await waitFor(() => expect(calls.some((c) => c.url.startsWith(`${BACKUP}/import?`))).toBe(true));
    const start = calls.find((c) => c.url.startsWith(`${BACKUP}/import?`));
    expect(start?.headers['x-request-project']).toBe('p1');
    expect(queryOf(start)).toEqual({ ...queryOf(planCall), requestId: queryOf(planCall)?.requestId });
  });
});

describe('restoring front-end pages', () => {
  it('warns that they replace the front-end files when html is chosen for a restore', async () => {
    server({ rows: [record('h1', { item: { fileServer: false, html: true, mongodb: false }, moduleRules: {} })] });
    open();
    fireEvent.click(await screen.findByTestId('backup-restore-h1'));
    await screen.findByTestId('backup-restore-ok');
    expect(screen.queryByTestId('backup-html-warning')).toBeNull();
    check('backup-kind-html');
    expect((await screen.findByTestId('backup-html-warning')).textContent).toBe(
      '还原前端页面会替换项目的前端文件，可能改变页面样式',
    );
  });
});

describe('the end of a backup task', () => {
  const task = (extra: Partial<TaskProgress>): TaskProgress => ({
    id: 't1',
    projectId: 'p1',
    type: 'backup.import',
    status: 'success',
    progress: 1,
    requestId: 'r1',
    message: null,
    startTime: '2026-11-22T00:00:00.000Z',
    endTime: '2026-11-22T00:01:00.000Z',
    ...extra,
  });

  it('a backup resets the list filter and says backup complete', async () => {
    const { calls } = server();
    open();
    await screen.findByTestId('backup-name-b1');
    fireEvent.change(within(screen.getByTestId('backup-search')).getByRole('searchbox'), {
      target: { value: 'xyz' },
    });
    await waitFor(() => expect(calls.some((c) => JSON.stringify(queryOf(c)?.filter ?? {}).includes('xyz'))).toBe(true));
    const before = calls.length;
    act(() => backupTaskEnded(task({ id: 'e1', type: 'backup.export' })));
    expect(await screen.findByText('备份完成')).toBeTruthy();
    await waitFor(() => expect(calls.length).toBeGreaterThan(before));
    expect(queryOf(calls.at(-1))?.filter).toEqual({ type: 'export', status: 'succeed' });
  });

  it('a restore says so and signs out after 5000 ms', async () => {
    const { calls } = server();
    signIn();
    vi.useFakeTimers();
    watchBackupTask('t1');
    const shown = vi.spyOn(toast, 'success');
    backupTaskEnded(task({}));
    // An end told twice (the socket, to two listeners) is acted on once: one notice, one sign-out.
    backupTaskEnded(task({}));
    expect(shown).toHaveBeenCalledTimes(1);
    // The notice stays until the sign-out, counting down.
    const [content, options] = shown.mock.calls.at(-1) ?? [];
    expect(options?.seconds).toBeGreaterThan(BACKUP_LIMITS.restoreRedirectMs / 1000);
    const notice = within(render(<span>{content}</span>).container);
    expect(notice.getByTestId('restore-succeeded').textContent).toBe(
      '还原成功，5 秒后跳转到登录页，请重新登录以使还原的数据生效',
    );
    expect(notice.getByTestId('restore-countdown').textContent).toBe('5 秒后退出登录');
    await act(() => vi.advanceTimersByTimeAsync(BACKUP_LIMITS.restoreRedirectMs - 1000));
    expect(notice.getByTestId('restore-countdown').textContent).toBe('1 秒后退出登录');
    await vi.advanceTimersByTimeAsync(999);
    expect(getUser()).not.toBeNull();
    expect(calls.some((c) => c.url.endsWith('/login/exit'))).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(getUser()).toBeNull());
    expect(calls.some((c) => c.url === '/portal/rest/spm/login/exit')).toBe(true);
    expect(window.location.hash).toBe('#/login');
  });
});

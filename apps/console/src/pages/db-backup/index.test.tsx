import type { DbBackupJobView, DbBackupView } from '@gantry/shared';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureDownloads, fakeXhr, mockFetch, renderPage, signIn } from '../../test/utils';
import DbBackupPage from '.';

configure({ asyncUtilTimeout: 5000 });

const DB = '/portal/rest/db-backup';

function dump(id: string, extra: Partial<DbBackupView> = {}): DbBackupView {
  return {
    id,
    name: `dump ${id}`,
    item: { fileServer: true, html: false, database: true },
    createTime: '2026-11-20T08:00:00.000Z',
    updateTime: '2026-11-20T08:00:00.000Z',
    fileSize: 12,
    bytes: 12 * 1048576,
    type: 'dump',
    status: 'success',
    sourceProjectId: 'p1',
    ...extra,
  };
}

/** A server whose jobs answer `states` one poll after another (the last one stays). */
type JobState = { status: string; log: string; warning?: DbBackupJobView['warning'] };

/** What a dump whose FTP copy was refused answers (its warning: a message key and params). */
const FTP_WARNING = {
  key: 'dbBackup.ftpCopyFailed',
  params: { reason: 'ftp.error.refused' },
  message: 'backup complete, but its copy to the FTP server failed: … (the server language)',
};

function server(options: { ftp?: 'off' | 'on' | 'failing'; states?: JobState[]; backups?: DbBackupView[] } = {}) {
  const states = [...(options.states ?? [{ status: 'success', log: 'Restore successful' }])];
  return mockFetch((call): { status?: number; body?: unknown; headers?: Record<string, string> } | undefined => {
    const path = call.url.split('?')[0];
    if (path === '/portal/rest/spm/project/available') return { body: [{ id: 'p1', name: 'Plant' }] };
    if (path === `${DB}/backup` && call.method === 'GET') {
      const rows = options.backups ?? [dump('d1')];
      return { body: rows, headers: { count: String(rows.length) } };
    }
    if (path === `${DB}/ftp` && call.method === 'GET') {
      return options.ftp === 'on'
        ? {
            body: [
              {
                id: 'f1',
                name: 'remote one',
                item: { fileServer: true, html: true, database: true },
                uploadTime: '2026-11-21T08:00:00.000Z',
                fileSize: 3,
              },
            ],
          }
        : options.ftp === 'failing'
          ? { status: 502, body: { code: 'dbBackupFtpFailed', message: 'FTP 存储出错：FTP 服务器拒绝连接或无法到达' } }
          : { body: [], headers: { 'ftp-configured': 'false' } };
    }
    if (path === `${DB}/stats`) {
      return {
        body: [
          { name: 'fileServer', size: 5, bytes: 5, count: 1 },
          { name: 'html', size: 1, bytes: 1, count: 1 },
          { name: 'database', size: 2, bytes: 2, count: 1 },
        ],
      };
    }
    if (path === `${DB}/download/d1`) return { body: 'PK…', headers: { 'content-type': 'application/zip' } };
    if (path === `${DB}/dump` || path === `${DB}/restore` || path === `${DB}/ftp/restore`)
      return { body: { id: 'job1' } };
    if (path === `${DB}/job1`) {
      const state = states.length > 1 ? states.shift() : states[0];
      return { body: { id: 'job1', type: 'restore', progress: 0.5, ...state } };
    }
    if (path === '/portal/rest/spm/proxy/core/mediaLibrary/all/dir')
      return { body: [{ path: 'videos', name: 'videos', type: 'dir', child: [] }] };
    if (call.method === 'DELETE') return { body: { status: 'OK' } };
    return undefined;
  });
}

function open(url = '/app/db-backup?projectId=p1') {
  signIn();
  return renderPage(<DbBackupPage />, { path: '/app/db-backup', url });
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('database backup dialog', () => {
  it('lists the dump backups (type dump, status success) with the project header, titled for backup', async () => {
    const { calls } = server();
    open();
    expect((await screen.findByTestId('db-name-backup-d1')).textContent).toBe('dump d1');
    expect(screen.getByTestId('db-title').textContent).toBe('数据库备份');
    const list = calls.find((c) => c.url.startsWith(`${DB}/backup?`));
    expect(list?.headers['x-request-project']).toBe('p1');
    const query = JSON.parse(new URL(list?.url ?? '', 'http://x').searchParams.get('query') ?? '{}');
    expect(query.filter).toEqual({ type: 'dump', status: 'success' });
    expect(screen.getByText('12 MB')).toBeTruthy();
  });

  it('filters the list by name, pages it, and batch deletes the chosen rows (as the project backups do)', async () => {
    const { calls } = server({ backups: [dump('d1'), dump('d2')] });
    open();
    await screen.findByTestId('db-name-backup-d2');
    const batch = screen.getByTestId('db-batch-delete') as HTMLButtonElement;
    expect(batch.disabled).toBe(true);
    for (const id of ['d1', 'd2'])
      fireEvent.click(screen.getByTestId(`db-row-backup-${id}`).querySelector('input[type="checkbox"]') as HTMLElement);
    await waitFor(() => expect(batch.disabled).toBe(false));
    fireEvent.click(batch);
    fireEvent.click(await screen.findByTestId('db-delete-ok'));
    expect(await screen.findByText('批量删除成功')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      `${DB}/backup/d1`,
      `${DB}/backup/d2`,
    ]);
    fireEvent.change(within(screen.getByTestId('db-search')).getByRole('searchbox'), { target: { value: 'night' } });
    await waitFor(() =>
      expect(
        calls.some((c) => {
          const query = JSON.parse(new URL(c.url, 'http://x').searchParams.get('query') ?? '{}');
          return query.filter?.name?.like === 'night' && query.filter.type === 'dump' && query.limit === 10;
        }),
      ).toBe(true),
    );
  });

  it('filters the FTP list here by name', async () => {
    server({ ftp: 'on' });
    open('/app/db-backup?projectId=p1&tab=ftp');
    await screen.findByTestId('db-name-ftp-f1');
    fireEvent.change(within(screen.getByTestId('db-search')).getByRole('searchbox'), { target: { value: 'nothing' } });
    await waitFor(() => expect(screen.queryByTestId('db-name-ftp-f1')).toBeNull());
    fireEvent.change(within(screen.getByTestId('db-search')).getByRole('searchbox'), { target: { value: 'REMOTE' } });
    expect(await screen.findByTestId('db-name-ftp-f1')).toBeTruthy();
  });

  it('is titled for restore from the FTP restore entry, and says when FTP storage is not configured', async () => {
    server({ ftp: 'off' });
    open('/app/db-backup?projectId=p1&action=ftpRestore');
    expect(screen.getByTestId('db-title').textContent).toBe('数据库还原');
    expect((await screen.findByTestId('db-ftp-not-configured')).textContent).toBe(
      'FTP 存储未配置：管理员可在“系统设置 → FTP 存储”中配置',
    );
    expect(screen.getByText('FTP 服务器上没有该项目的备份')).toBeTruthy();
    expect(screen.queryByTestId('db-list-error-ftp')).toBeNull();
  });

  it('shows an FTP server that fails as an error above the FTP list', async () => {
    server({ ftp: 'failing' });
    open('/app/db-backup?projectId=p1&tab=ftp');
    const error = await screen.findByTestId('db-list-error-ftp');
    expect(error.textContent).toBe('FTP 存储出错：FTP 服务器拒绝连接或无法到达');
    expect(error.classList.contains('ant-alert-error')).toBe(true);
  });

  it('ends a dump whose FTP copy failed with a warning toast, and marks the backup in the list', async () => {
    server({
      states: [{ status: 'success', log: 'backup complete, but …', warning: FTP_WARNING }],
      backups: [dump('d1', { warning: FTP_WARNING })],
    });
    open('/app/db-backup?projectId=p1&action=create');
    const mark = await screen.findByTestId('db-warning-backup-d1');
    const chinese = '备份完成，但复制到 FTP 服务器失败：FTP 服务器拒绝连接或无法到达（本地备份已保留）';
    expect(mark.getAttribute('aria-label')).toBe(chinese);
    expect(mark.textContent).toBe('警告');
    await waitFor(() => expect((screen.getByTestId('db-name') as HTMLInputElement).value).not.toBe(''));
    fireEvent.click(screen.getByTestId('db-create-ok'));
    const toast = await screen.findByTestId('db-job-warning', {}, { timeout: 4000 });
    expect(toast.textContent).toBe(chinese);
    expect(toast.closest('.ant-message-notice-content')?.querySelector('.ant-message-warning')).not.toBeNull();
    expect(screen.queryByText('备份完成')).toBeNull();
  });

  it('restores from the FTP list: polls the job every second, shows the restoring notice, then success', async () => {
    const { calls } = server({
      ftp: 'on',
      states: [
        { status: 'running', log: '' },
        { status: 'running', log: '' },
        { status: 'success', log: 'Restore successful' },
      ],
    });
    open('/app/db-backup?projectId=p1&action=ftpRestore');
    fireEvent.click(await screen.findByTestId('db-restore-ftp-f1'));
    // Nothing is chosen until the user chooses; the rule of a database restore is said.
    fireEvent.click(await screen.findByTestId('db-restore-ok'));
    expect(await screen.findByText('备份内容不能为空')).toBeTruthy();
    fireEvent.click(screen.getByTestId('db-kind-all'));
    expect((await screen.findByTestId('db-fixed-rule')).textContent).toContain('清空后新增');
    expect(await screen.findByTestId('db-html-warning')).toBeTruthy();
    fireEvent.click(screen.getByTestId('db-restore-ok'));
    await waitFor(() =>
      expect(document.querySelector('.ant-modal-confirm-title')?.textContent).toBe(
        '还原将替换项目现有的数据，确定继续？',
      ),
    );
    expect(calls.some((c) => c.url.startsWith(`${DB}/ftp/restore`))).toBe(false);
    fireEvent.click(await screen.findByTestId('db-replace-ok'));
    expect(await screen.findByTestId('db-restoring')).toBeTruthy();
    const start = calls.find((c) => c.url.startsWith(`${DB}/ftp/restore`));
    expect(start?.url).toBe(`${DB}/ftp/restore?id=f1`);
    expect(start?.body).toEqual({ fileServer: true, html: true, database: true });
    expect(start?.headers['x-request-project']).toBe('p1');
    expect(await screen.findByText('还原成功', {}, { timeout: 6000 })).toBeTruthy();
    // The notice is closing (happy-dom runs no leave animation to its end).
    const leaving = () => screen.queryByTestId('db-restoring')?.closest('.ant-notification-fade-leave') ?? null;
    await waitFor(() => expect(leaving()).not.toBeNull());
    const polls = calls.filter((c) => c.url.startsWith(`${DB}/job1`));
    expect(polls).toHaveLength(3);
  });

  it("restores only the chosen parts, and shows a failed job's log as the error", async () => {
    const { calls } = server({ states: [{ status: 'failed', log: 'The backup file is not valid: damaged' }] });
    open('/app/db-backup?projectId=p1&action=restore');
    fireEvent.click(await screen.findByTestId('db-restore-backup-d1'));
    // Only the parts the backup holds are offered.
    expect(await screen.findByTestId('db-kind-database')).toBeTruthy();
    expect(screen.queryByTestId('db-kind-html')).toBeNull();
    fireEvent.click(screen.getByTestId('db-kind-database'));
    fireEvent.click(screen.getByTestId('db-restore-ok'));
    fireEvent.click(await screen.findByTestId('db-replace-ok'));
    expect(await screen.findByText('The backup file is not valid: damaged', {}, { timeout: 4000 })).toBeTruthy();
    expect(calls.find((c) => c.url.startsWith(`${DB}/restore`))?.body).toEqual({ database: true });
    await waitFor(() =>
      expect(screen.queryByTestId('db-restoring')?.closest('.ant-notification-fade-leave')).toBeTruthy(),
    );
  });

  it('backs up the chosen parts under the default name, and says when the job ends', async () => {
    const { calls } = server({ states: [{ status: 'success', log: 'backup complete' }] });
    open('/app/db-backup?projectId=p1&action=create');
    const name = (await screen.findByTestId('db-name')) as HTMLInputElement;
    await waitFor(() => expect(name.value).toMatch(/^Plant_\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/));
    expect(await screen.findByText('数据 (2 MB)')).toBeTruthy();
    // The name is labelled and counted (30 characters).
    expect(document.querySelector('label[for="name"]')?.textContent).toBe('名称');
    expect(name.closest('.ant-input-affix-wrapper')?.querySelector('.ant-input-show-count-suffix')?.textContent).toBe(
      `${[...name.value].length} / 30`,
    );
    fireEvent.click(screen.getByTestId('db-kind-html'));
    // Media folders left out, as the project backup dialog picks them; the sizes follow.
    fireEvent.click(screen.getByTestId('db-pick-folders'));
    const folder = await screen.findByTestId('backup-folder-videos');
    fireEvent.click(folder.closest('.ant-tree-treenode')?.querySelector('.ant-tree-checkbox') ?? folder);
    fireEvent.click(screen.getByTestId('backup-folders-ok'));
    expect(await screen.findByTestId('db-excluded-videos')).toBeTruthy();
    await waitFor(() =>
      expect(calls.some((c) => c.url.includes('/stats?') && c.url.includes(encodeURIComponent('["videos"]')))).toBe(
        true,
      ),
    );
    fireEvent.click(screen.getByTestId('db-create-ok'));
    expect(await screen.findByText('备份完成', {}, { timeout: 4000 })).toBeTruthy();
    const started = calls.find((c) => c.url === `${DB}/dump`);
    expect(started?.method).toBe('POST');
    expect(started?.body).toEqual({
      name: name.value,
      item: { fileServer: true, database: true },
      excludedDirs: ['videos'],
    });
  });

  it('requires the code once "add code" is chosen for a download, then fetches and saves the file', async () => {
    const { calls } = server();
    const downloads = captureDownloads();
    open();
    fireEvent.click(await screen.findByTestId('db-download-backup-d1'));
    const ok = (await screen.findByTestId('db-download-ok')) as HTMLButtonElement;
    const addCode = screen.getByTestId('backup-add-code');
    fireEvent.click(addCode.matches('input') ? addCode : (addCode.querySelector('input') as HTMLInputElement));
    await waitFor(() => expect(ok.disabled).toBe(true));
    fireEvent.change(screen.getByTestId('backup-code'), { target: { value: 'k3y' } });
    await waitFor(() => expect(ok.disabled).toBe(false));
    fireEvent.click(ok);
    await waitFor(() => expect(downloads.map((d) => d.name)).toEqual(['dump d1.zip']));
    const fetched = calls.find((c) => c.url.startsWith(`${DB}/download/`));
    expect(fetched?.url).toBe(`${DB}/download/d1?password=k3y`);
    expect(fetched?.headers['x-request-project']).toBe('p1');
    expect(fetched?.headers.Authorization).toBe('Bearer admin-token');
  });

  it('asks the upload code first (cancel goes on with none), then uploads with a progress bar', async () => {
    server();
    const FakeXhr = fakeXhr({ progress: [[1048576, 4 * 1048576]], body: dump('u1') });
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    open('/app/db-backup?projectId=p1&action=upload');
    fireEvent.change(await screen.findByTestId('db-upload-code'), { target: { value: 'typed' } });
    fireEvent.click(screen.getByTestId('db-code-cancel'));
    const input = await screen.findByTestId('db-upload-input');
    fireEvent.change(input, { target: { files: [new File(['x'], 'night.tar')] } });
    expect(await screen.findByText('上传文件格式错误，请上传压缩文件！')).toBeTruthy();
    fireEvent.change(input, { target: { files: [new File(['x'], 'night_1.zip')] } });
    expect((await screen.findByTestId('db-upload-progress')).textContent).toContain('25%');
    // Cancel went on without a code.
    expect(FakeXhr.sent[0]?.url).toBe(`${DB}/upload?projectId=p1`);
    expect(FakeXhr.sent[0]?.headers['x-request-project']).toBe('p1');
    FakeXhr.finish?.();
    expect(await screen.findByText('上传成功')).toBeTruthy();
  });

  it('sends the upload code when it is confirmed', async () => {
    server();
    const FakeXhr = fakeXhr();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    open('/app/db-backup?projectId=p1&action=upload');
    fireEvent.change(await screen.findByTestId('db-upload-code'), { target: { value: 'c0de' } });
    fireEvent.click(screen.getByTestId('db-code-ok'));
    fireEvent.change(await screen.findByTestId('db-upload-input'), { target: { files: [new File(['x'], 'a.zip')] } });
    await waitFor(() => expect(FakeXhr.sent.map((x) => x.url)).toEqual([`${DB}/upload?projectId=p1&password=c0de`]));
  });
});

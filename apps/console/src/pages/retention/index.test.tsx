import { DEFAULT_SETTINGS } from '@gantry/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderPage, signIn } from '../../test/utils';
import RetentionPage from '.';

describe('retention policy', () => {
  it('shows the equivalent days and saves with PATCH {retentionPolicy, auditRetention}', async () => {
    const { calls } = mockFetch((call) => {
      if (call.method === 'GET') return { body: { ...DEFAULT_SETTINGS, retentionPolicy: { count: 2, unit: 'w' } } };
      return { body: { ...DEFAULT_SETTINGS, ...(call.body as object) } };
    });
    signIn();
    renderPage(<RetentionPage />, { path: '/app/settings/bbs_realtime' });
    expect((await screen.findByTestId('retention-days')).textContent).toBe('相当于 14 天');

    const count = within(screen.getByTestId('retention')).getByRole('spinbutton');
    fireEvent.change(count, { target: { value: '3' } });
    await waitFor(() => expect(screen.getByTestId('retention-days').textContent).toBe('相当于 21 天'));
    fireEvent.click(screen.getByTestId('retention-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toBe('/portal/rest/spm/setting');
    expect(patch?.body).toEqual({ retentionPolicy: { count: 3, unit: 'w' }, auditRetention: null });
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('limits the audit log’s retention when turned on (issue 34 §5)', async () => {
    const { calls } = mockFetch((call) => {
      if (call.method === 'GET') return { body: DEFAULT_SETTINGS };
      return { body: { ...DEFAULT_SETTINGS, ...(call.body as object) } };
    });
    signIn();
    renderPage(<RetentionPage />, { path: '/app/settings/bbs_realtime' });
    fireEvent.click(await screen.findByTestId('retention-audit-limited'));
    const count = within(await screen.findByTestId('retention-audit')).getByRole('spinbutton');
    fireEvent.change(count, { target: { value: '2' } });
    fireEvent.click(screen.getByTestId('retention-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      retentionPolicy: { count: 1, unit: 'Y' },
      auditRetention: { count: 2, unit: 'Y' },
    });
  });

  it('says when the clean-up last ran and what it removed, and runs it on demand', async () => {
    const task = {
      id: 't1',
      status: 'success',
      progress: 1,
      message: 'removed 2345 data records stored before 2026-10-23T00:00:00.000Z',
      startTime: '2026-11-22T10:00:00.000Z',
      endTime: '2026-11-22T10:00:03.000Z',
    };
    const { calls } = mockFetch((call) => {
      if (call.url.endsWith('/bbs_realtime/last-run')) return { body: { task } };
      if (call.url.endsWith('/bbs_realtime/run'))
        return { body: { ...task, id: 't2', status: 'ongoing', progress: 0 } };
      return { body: DEFAULT_SETTINGS };
    });
    signIn();
    renderPage(<RetentionPage />, { path: '/app/settings/bbs_realtime' });
    const lastRun = await screen.findByTestId('retention-last-run');
    await waitFor(() => expect(lastRun.textContent).toContain('已完成'));
    expect(lastRun.textContent).toContain('removed 2345 data records');
    expect(lastRun.textContent).toMatch(/2026-11-22 \d{2}:00:03/);
    fireEvent.click(screen.getByTestId('retention-run'));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/bbs_realtime/run'))).toBe(true),
    );
    expect(await screen.findByText('清理已开始')).toBeTruthy();
  });

  it('shows the no-permission page when the server answers only the public settings', async () => {
    mockFetch(() => ({ body: { name: 'Gantry', language: 'zh_Hans', logo: '' } }));
    signIn();
    renderPage(<RetentionPage />, { path: '/app/settings/bbs_realtime' });
    expect(await screen.findByText('您没有查看该页面权限')).toBeTruthy();
  });
});

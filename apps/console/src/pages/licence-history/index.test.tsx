import type { MachineInfoRow } from '@gantry/shared';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ADMIN, captureDownloads, type MockCall, mockFetch, renderPage, signIn } from '../../test/utils';
import { currentUser, historyRow } from '../licence/testFixtures';
import { listQuery, pathOf } from '../tenants/testFixtures';
import LicenceHistoryPage, { HISTORY_SCROLL_X, historyFileName } from '.';

configure({ asyncUtilTimeout: 5000 });

const BASE = '/portal/rest/core/license/machineInfo';
const WINDOWS = historyRow('w1', {
  platform: 'windows',
  uuid: null,
  biosAddr: null,
  baseBoardSerialNumber: 'BOARD-77',
  biosSerialNumber: 'BIOS-SN-1',
  biosVersion: 'v2.3',
  macAddress: '00:11:22:33:44:55',
});

function server({ rights = ['log.view', 'log.export'], total = 45 }: { rights?: string[]; total?: number } = {}) {
  return mockFetch((call) => {
    const path = pathOf(call);
    if (path === '/portal/rest/spm/login/current/user') return { body: currentUser({ rights }) };
    if (path === BASE) {
      const skip = Number(listQuery(call).skip ?? 0);
      const rows: MachineInfoRow[] = skip === 0 ? [historyRow('r1'), WINDOWS] : [historyRow(`r${skip}`)];
      return { body: rows, headers: { count: String(total) } };
    }
    if (path === `${BASE}/export`) return { body: 'time,machineCode\n' };
    if (path.startsWith(`${BASE}/`)) {
      const id = path.slice(BASE.length + 1);
      return { body: id === 'w1' ? WINDOWS : historyRow(id, { appliedBy: 'admin (fresh)' }) };
    }
    return undefined;
  });
}

const listCalls = (calls: MockCall[]) => calls.filter((c) => pathOf(c) === BASE);

function renderHistory() {
  signIn();
  renderPage(<LicenceHistoryPage />, { path: '/app/model/Licenseinfo/list' });
}

describe('licence history', () => {
  it('lists rows newest first and pages with the count header, with the bare token', async () => {
    const { calls } = server();
    renderHistory();
    const row = await screen.findByTestId('history-row-r1');
    for (const part of ['cpu-r1', 'uuid-r1', 'LIC-r1', '2026-03-01', '2027-02-28', '100', '其他']) {
      expect(row.textContent).toContain(part);
    }
    expect(screen.getByTestId('history-row-w1').textContent).toContain('BOARD-77');
    const first = listCalls(calls)[0] as MockCall;
    expect(listQuery(first)).toEqual({ sort: { time: -1 }, skip: 0, limit: 20, withCount: true });
    expect(first.headers.Authorization).toBe(ADMIN.token);
    // 45 rows: three pages
    fireEvent.click(screen.getByTitle('3'));
    expect(await screen.findByTestId('history-row-r40')).toBeTruthy();
    expect(listQuery(listCalls(calls).at(-1) as MockCall)).toMatchObject({ skip: 40, limit: 20 });
    const table = screen.getByTestId('history-table');
    expect(table.querySelector('table')?.style.width).toBe(`${HISTORY_SCROLL_X}px`);
  });

  it('hides the export without log.export', async () => {
    const { calls } = server({ rights: ['log.view'] });
    renderHistory();
    await screen.findByTestId('history-row-r1');
    await waitFor(() => expect(calls.some((c) => pathOf(c).endsWith('/login/current/user'))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('history-export')).toBeNull();
  });

  it('exports CSV with log.export as licence-history-YYYYMMDD.csv', async () => {
    const { calls } = server();
    const downloads = captureDownloads();
    renderHistory();
    fireEvent.click(await screen.findByTestId('history-export'));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]?.name).toBe(historyFileName());
    expect(downloads[0]?.name).toMatch(/^licence-history-\d{8}\.csv$/);
    const exported = calls.find((c) => pathOf(c) === `${BASE}/export`) as MockCall;
    expect(listQuery(exported)).toEqual({ sort: { time: -1 } });
    expect(exported.headers.Authorization).toBe(ADMIN.token);
  });

  it('views a row with the field set of its platform', async () => {
    const { calls } = server();
    renderHistory();
    fireEvent.click(await screen.findByTestId('history-view-r1'));
    const detail = await screen.findByTestId('history-detail');
    expect(detail.getAttribute('data-platform')).toBe('other');
    expect(within(detail).getByTestId('history-detail-uuid').textContent).toBe('uuid-r1');
    expect(within(detail).getByTestId('history-detail-biosAddr').textContent).toBe('SeaBIOS 1.16');
    expect(within(detail).queryByTestId('history-detail-baseBoardSerialNumber')).toBeNull();
    expect(within(detail).queryByTestId('history-detail-macAddress')).toBeNull();
    // the row is read again by id
    await waitFor(() =>
      expect(within(detail).getByTestId('history-detail-appliedBy').textContent).toBe('admin (fresh)'),
    );
    expect(calls.some((c) => pathOf(c) === `${BASE}/r1`)).toBe(true);

    fireEvent.click(screen.getByTestId('history-view-w1'));
    await waitFor(() => expect(screen.getByTestId('history-detail').getAttribute('data-platform')).toBe('windows'));
    const windows = screen.getByTestId('history-detail');
    expect(within(windows).getByTestId('history-detail-baseBoardSerialNumber').textContent).toBe('BOARD-77');
    expect(within(windows).getByTestId('history-detail-biosSerialNumber').textContent).toBe('BIOS-SN-1');
    expect(within(windows).getByTestId('history-detail-biosVersion').textContent).toBe('v2.3');
    expect(within(windows).getByTestId('history-detail-macAddress').textContent).toBe('00:11:22:33:44:55');
    expect(within(windows).queryByTestId('history-detail-uuid')).toBeNull();
    expect(within(windows).queryByTestId('history-detail-biosAddr')).toBeNull();
  });
});

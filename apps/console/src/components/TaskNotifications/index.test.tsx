import { act, configure, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TaskProgress } from '../../services/progressSocket';
import { getUser } from '../../services/session';
import { mockFetch, renderPage, signIn } from '../../test/utils';
import { TaskNotifications } from '.';

configure({ asyncUtilTimeout: 5000 });

class FakeSocket {
  static last: FakeSocket | undefined;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  sent: string[] = [];
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(text: string) {
    this.sent.push(text);
  }
  close() {}
}

const task = (extra: Partial<TaskProgress>): TaskProgress => ({
  id: 't1',
  projectId: 'p1',
  type: 'backup.export',
  status: 'ongoing',
  progress: 0.5,
  requestId: 'r1',
  message: null,
  startTime: '2026-11-22T00:00:00.000Z',
  endTime: null,
  ...extra,
});

function start() {
  vi.stubGlobal('WebSocket', FakeSocket);
  const { calls } = mockFetch((call) => (call.url.includes('/taskmanager') ? { body: [] } : undefined));
  signIn();
  renderPage(<TaskNotifications />);
  const socket = FakeSocket.last;
  if (!socket) throw new Error('no socket');
  act(() => socket.onopen?.());
  const send = (t: TaskProgress) =>
    act(() => socket.onmessage?.({ data: JSON.stringify({ name: 'historycomputed', data: { p1: { r1: t } } }) }));
  return { calls, send };
}

describe('task notifications of backups', () => {
  it('says nothing of a restore that had ended before the page opened (and does not sign out)', async () => {
    const { send } = start();
    send(task({ id: 'old', type: 'backup.import', status: 'success', progress: 1 }));
    send(task({ id: 't2', progress: 0.1 }));
    await screen.findByTestId('task-progress-t2');
    expect(screen.queryByText(/还原成功/)).toBeNull();
    expect(getUser()).not.toBeNull();
  });

  it('shows a running backup with its percentage, then closes it and says backup complete', async () => {
    const { calls, send } = start();
    expect(calls[0]?.url).toContain('/portal/rest/spm/proxy/core/taskmanager?query=');
    send(task({}));
    expect((await screen.findByTestId('task-progress-t1')).textContent).toContain('50%');
    expect(await screen.findByText('项目备份')).toBeTruthy();
    send(task({ status: 'success', progress: 1 }));
    expect(await screen.findByText('备份完成')).toBeTruthy();
  });

  it("shows a failed backup's message", async () => {
    const { send } = start();
    // Task ids are never reused: this one is not the first test's.
    send(task({ id: 't3', type: 'backup.import' }));
    await screen.findByTestId('task-progress-t3');
    send(
      task({
        id: 't3',
        type: 'backup.import',
        status: 'failed',
        message: 'The backup file is not valid: manifest.json is missing',
      }),
    );
    expect(await screen.findByText('The backup file is not valid: manifest.json is missing')).toBeTruthy();
  });
});

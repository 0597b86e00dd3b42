import { TASK_SOCKET_PATIENCE_MS } from '@gantry/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../app/queryClient';
import type { TaskProgress } from '../../../services/progressSocket';
import { FakeSocket, mockFetch, signIn, TENANT } from '../../../test/utils';
import { useTaskProgress } from './TemplateInstall';

/** The sockets the progress client made (the global WebSocket is the stand-in). */
let sockets: FakeSocket[] = [];
class RecordedSocket extends FakeSocket {
  constructor(url: string) {
    super(url);
    sockets.push(this);
  }
}

const task = (status: TaskProgress['status'], progress: number): TaskProgress => ({
  id: 't1',
  projectId: null,
  type: 'template.install',
  status,
  progress,
  requestId: 'r1',
  message: null,
  startTime: '2026-11-24T00:00:00.000Z',
  endTime: status === 'ongoing' ? null : '2026-11-24T00:00:20.000Z',
});
const frame = (status: TaskProgress['status'], progress: number) => ({
  data: JSON.stringify({ name: 'historycomputed', data: { default: { r1: task(status, progress) } } }),
});

function setUp() {
  signIn(TENANT);
  const { calls } = mockFetch((call) =>
    call.url.includes('/taskmanager/t1') ? { body: task('ongoing', 0.9) } : undefined,
  );
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useTaskProgress('t1'), { wrapper });
  const socket = sockets.at(-1) as FakeSocket;
  const polls = () => calls.filter((call) => call.url.includes('/taskmanager/t1')).length;
  return { hook, socket, polls };
}

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  sockets = [];
  vi.stubGlobal('WebSocket', RecordedSocket);
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('useTaskProgress: the progress socket first, the task polled only as a fallback', () => {
  it('follows a task the socket speaks of every few seconds to its end, and never polls it', async () => {
    const { hook, socket, polls } = setUp();
    await act(async () => socket.onopen?.());
    // A busy server: four seconds between two words of the socket, more than the old 3 s wait.
    for (const progress of [0.1, 0.4, 0.7]) {
      await act(async () => socket.onmessage?.(frame('ongoing', progress)));
      await wait(4_000);
    }
    expect(hook.result.current).toMatchObject({ task: { status: 'ongoing', progress: 0.7 }, source: 'socket' });
    await act(async () => socket.onmessage?.(frame('success', 1)));
    await wait(TASK_SOCKET_PATIENCE_MS * 2);
    expect(hook.result.current).toMatchObject({ task: { status: 'success' }, source: 'socket' });
    expect(polls()).toBe(0);
  });

  it('polls the task once the open socket has said nothing of it for TASK_SOCKET_PATIENCE_MS, not before', async () => {
    const { hook, socket, polls } = setUp();
    await act(async () => socket.onopen?.());
    await wait(TASK_SOCKET_PATIENCE_MS - 100);
    expect(polls()).toBe(0);
    await wait(200);
    expect(polls()).toBe(1);
    await vi.waitFor(() => expect(hook.result.current).toMatchObject({ task: { progress: 0.9 }, source: 'poll' }));
  });

  it('polls at once while the socket is closed', async () => {
    const { socket, polls } = setUp();
    await act(async () => socket.onopen?.());
    await act(async () => socket.onclose?.());
    await wait(10);
    expect(polls()).toBe(1);
  });
});

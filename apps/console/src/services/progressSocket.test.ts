import { WS_AUTH_FAILED } from '@gantry/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../test/utils';
import { ProgressSocket, reconnectDelay, type TaskProgress } from './progressSocket';

let sockets: FakeSocket[];
const make = () =>
  new ProgressSocket(
    'tok en',
    (token) => `ws://host/ws?token=${encodeURIComponent(token)}`,
    (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
  );

beforeEach(() => {
  sockets = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

const task: TaskProgress = {
  id: 't1',
  projectId: 'p1',
  type: 'data.retention',
  status: 'ongoing',
  progress: 0.25,
  requestId: 'r1',
  message: null,
  startTime: '2026-11-22T10:00:00.000Z',
  endTime: null,
};

describe('progress websocket client', () => {
  it('waits 3 s, then 10 s after 10 attempts, then 60 s after 20', () => {
    expect([0, 9, 10, 19, 20, 50].map(reconnectDelay)).toEqual([3_000, 3_000, 10_000, 10_000, 60_000, 60_000]);
  });

  it('sends its query on open and a keep-alive every 30 s, and hands on the tasks of each message', () => {
    const client = make();
    const seen: TaskProgress[][] = [];
    client.subscribe((tasks) => seen.push(tasks));
    client.start();
    const socket = sockets[0];
    expect(socket?.url).toBe('ws://host/ws?token=tok%20en');
    socket?.onopen?.();
    expect(socket?.sent).toEqual([JSON.stringify({ name: 'historycomputed' })]);
    vi.advanceTimersByTime(30_000);
    expect(socket?.sent).toHaveLength(2);
    socket?.onmessage?.({ data: JSON.stringify({ name: 'historycomputed', data: { p1: { r1: task } } }) });
    socket?.onmessage?.({ data: 'not json' });
    expect(seen).toEqual([[task]]);
  });

  it('reconnects after a close with the spec delays, and stops for good on an invalid session', () => {
    const client = make();
    client.start();
    for (let attempt = 0; attempt < 11; attempt++) {
      sockets.at(-1)?.onclose?.();
      vi.advanceTimersByTime(reconnectDelay(attempt) - 1);
      expect(sockets).toHaveLength(attempt + 1);
      vi.advanceTimersByTime(1);
      expect(sockets).toHaveLength(attempt + 2);
    }
    const last = sockets.at(-1);
    last?.onmessage?.({ data: WS_AUTH_FAILED });
    expect(last?.closed).toBe(true);
    last?.onclose?.();
    vi.advanceTimersByTime(120_000);
    expect(sockets).toHaveLength(12);
  });

  it('tells its watchers when it opens and closes (they poll meanwhile)', () => {
    const client = make();
    const states: boolean[] = [];
    client.onStatus((open) => states.push(open));
    client.start();
    sockets[0]?.onopen?.();
    sockets[0]?.onclose?.();
    vi.advanceTimersByTime(3_000);
    sockets[1]?.onopen?.();
    client.stop();
    expect(states).toEqual([true, false, true, false]);
  });
});

import type { LoginResponse } from '@gantry/shared';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../app/queryClient';
import { setUser } from '../services/session';

export interface MockCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Reply = { status?: number; body?: unknown; headers?: Record<string, string> } | undefined;
type Handler = (call: MockCall) => Reply | Promise<Reply>;

/** Replace fetch: the handler answers each call (200 with its body by default); calls are recorded. */
export function mockFetch(handler: Handler) {
  const calls: MockCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>));
    let body: unknown = init?.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // keep the text
      }
    }
    const call: MockCall = { url, method: init?.method ?? 'GET', headers, body };
    calls.push(call);
    const reply = (await handler(call)) ?? { status: 404, body: { message: 'not mocked', code: 'notFound' } };
    const status = reply.status ?? 200;
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
    return new Response(text, { status, headers: { 'Content-Type': 'application/json', ...reply.headers } });
  });
  vi.stubGlobal('fetch', fn);
  return { calls, fn };
}

/** The browser's WebSocket as the progress client uses it: what it sent, and events a test can fire. */
export class FakeSocket {
  sent: string[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {}
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.closed = true;
  }
}

/** Shows the router location, so tests can assert navigation. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

/** Render routes in a memory router inside the app providers. */
export function renderRoutes(routes: RouteObject[], initialEntry: string) {
  const router = createMemoryRouter([...routes, { path: '*', element: <LocationProbe /> }], {
    initialEntries: [initialEntry],
  });
  const utils = render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router };
}

/** Render one element at `path`; any other location shows a LocationProbe. */
export function renderPage(element: ReactElement, { path = '/', url = path }: { path?: string; url?: string } = {}) {
  return renderRoutes([{ path, element }], url);
}

export const ADMIN: LoginResponse = {
  id: 'u-admin',
  username: 'admin',
  name: 'Administrator',
  isAdmin: true,
  userId: 'admin',
  protectUrl: null,
  expiresAt: '2099-01-01T00:00:00.000Z',
  token: 'admin-token',
};

export const TENANT: LoginResponse = {
  ...ADMIN,
  id: 'u-tenant',
  username: 'acme',
  name: 'Acme',
  isAdmin: false,
  userId: 'acme',
  token: 'tenant-token',
};

export function signIn(user: LoginResponse = ADMIN): void {
  setUser(user, false);
}

export interface Download {
  name: string;
  blob: Blob;
}

/** Capture files the page offers for download (object URL + a clicked `<a download>`). */
export function captureDownloads(): Download[] {
  const downloads: Download[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob: Blob | MediaSource) => {
    const url = `blob:test/${blobs.size}`;
    if (blob instanceof Blob) blobs.set(url, blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href) ?? blobs.get(this.getAttribute('href') ?? '');
    if (blob) downloads.push({ name: this.download, blob });
  });
  return downloads;
}

/**
 * A stand-in for XMLHttpRequest as the request layer's `upload` uses it: records what is sent, reports
 * `progress` ([loaded, total] events) as the body goes, then answers `status` with `body` when the
 * test calls `finish()` (or at once with `answerAtOnce`). Stub it with `vi.stubGlobal('XMLHttpRequest', …)`.
 */
export function fakeXhr(
  options: { progress?: Array<[number, number]>; status?: number; body?: unknown; answerAtOnce?: boolean } = {},
) {
  class FakeXhr {
    static sent: Array<{ url: string; headers: Record<string, string>; body: FormData }> = [];
    static finish: (() => void) | undefined;
    upload: {
      onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
      onload: (() => void) | null;
    } = { onprogress: null, onload: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    status = 0;
    statusText = '';
    responseText = '';
    private url = '';
    private headers: Record<string, string> = {};
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    abort() {}
    send(body: FormData) {
      FakeXhr.sent.push({ url: this.url, headers: this.headers, body });
      for (const [loaded, total] of options.progress ?? [])
        this.upload.onprogress?.({ lengthComputable: true, loaded, total });
      FakeXhr.finish = () => {
        this.status = options.status ?? 200;
        this.responseText = JSON.stringify(options.body ?? {});
        this.onload?.();
      };
      if (options.answerAtOnce) setTimeout(() => FakeXhr.finish?.(), 0);
    }
  }
  return FakeXhr;
}

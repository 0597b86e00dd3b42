import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../app/providers';
import i18n from '../i18n';
import { ADMIN, fakeXhr, mockFetch, signIn } from '../test/utils';
import { bindNavigate } from './navigation';
import { download, LOGIN_MESSAGE_KEY, NOT_LOGGED_IN, RequestError, request, requestBlob, upload } from './request';
import { getUser } from './session';

function renderToasts() {
  render(
    <AppProviders>
      <div />
    </AppProviders>,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('request layer', () => {
  it('calls /portal/rest/spm/... with the bearer token, language and JSON body', async () => {
    signIn();
    const { calls } = mockFetch(() => ({ body: { ok: true } }));
    await expect(request('rest/spm/setting', { method: 'PATCH', body: { enableCors: true } })).resolves.toEqual({
      ok: true,
    });
    expect(calls[0]?.url).toBe('/portal/rest/spm/setting');
    expect(calls[0]?.headers.Authorization).toBe(`Bearer ${ADMIN.token}`);
    expect(calls[0]?.headers['Accept-Language']).toBe('zh');
    expect(calls[0]?.headers['Content-Type']).toBe('application/json');
    expect(calls[0]?.body).toEqual({ enableCors: true });

    await act(() => i18n.changeLanguage('en'));
    await request('rest/spm/setting', { query: { a: 1, b: undefined } });
    expect(calls[1]?.url).toBe('/portal/rest/spm/setting?a=1');
    expect(calls[1]?.headers['Accept-Language']).toBe('en');
  });

  it('sends the bare token to the core service and reads downloads as blobs', async () => {
    signIn();
    const { calls } = mockFetch(() => ({ body: 'a,b' }));
    const blob = await requestBlob('rest/core/license/machineInfo/export', { query: { query: '{}' } });
    expect(await blob.text()).toBe('"a,b"');
    expect(calls[0]?.url).toBe('/portal/rest/core/license/machineInfo/export?query=%7B%7D');
    expect(calls[0]?.headers.Authorization).toBe(ADMIN.token);
    await request('rest/spm/setting');
    expect(calls[1]?.headers.Authorization).toBe(`Bearer ${ADMIN.token}`);
  });

  it('never sends the token to another host', async () => {
    signIn();
    const { calls } = mockFetch(() => ({ body: {} }));
    for (const url of ['https://elsewhere.example/x', '//elsewhere.example/x', 'javascript:alert(1)']) {
      await expect(request(url, { noMessage: true })).rejects.toThrow('API paths only');
    }
    expect(calls).toHaveLength(0);
  });

  it('on 401 signs out, stores the token-expired message and goes to /login with the redirect', async () => {
    signIn();
    window.location.hash = '#/app/settings?tab=2';
    const navigate = vi.fn();
    bindNavigate(navigate);
    mockFetch(() => ({ status: 401, body: { message: 'expired', code: 'unauthorized' } }));

    const error = await request('rest/spm/login/current/user').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).message).toBe(NOT_LOGGED_IN);
    expect(getUser()).toBeNull();
    expect(sessionStorage.getItem(LOGIN_MESSAGE_KEY)).toBe('令牌到期，请重新登录');
    expect(navigate).toHaveBeenCalledWith(`/login?redirect=${encodeURIComponent('/app/settings?tab=2')}`, {
      replace: true,
    });
  });

  it('on 401 without a bound router sets the hash itself, and not again when already on /login', async () => {
    signIn();
    window.location.hash = '#/app/crossRequest';
    mockFetch(() => ({ status: 401, body: { message: 'expired', code: 'unauthorized' } }));
    await expect(request('rest/spm/setting')).rejects.toThrow(NOT_LOGGED_IN);
    expect(window.location.hash).toBe(`#/login?redirect=${encodeURIComponent('/app/crossRequest')}`);

    await expect(request('rest/spm/setting')).rejects.toThrow(NOT_LOGGED_IN);
    expect(window.location.hash).toBe(`#/login?redirect=${encodeURIComponent('/app/crossRequest')}`);
  });

  it('a 401 of the login call itself is an ordinary error', async () => {
    signIn();
    mockFetch(() => ({ status: 401, body: { message: 'nope', code: 'unauthorized' } }));
    await expect(request('rest/spm/login', { ignoreUnauthorized: true, noMessage: true })).rejects.toThrow('nope');
    expect(getUser()).not.toBeNull();
    expect(sessionStorage.getItem(LOGIN_MESSAGE_KEY)).toBeNull();
  });

  it('403 shows access denied', async () => {
    renderToasts();
    mockFetch(() => ({ status: 403, body: { message: 'forbidden', code: 'forbidden' } }));
    await expect(request('rest/spm/setting')).rejects.toMatchObject({ status: 403 });
    expect(await screen.findByText('访问被拒绝')).toBeTruthy();
    expect(screen.getByText('您没有权限进行该操作')).toBeTruthy();
  });

  it('shows the body message of other errors, with details on demand', async () => {
    renderToasts();
    mockFetch(() => ({ status: 409, body: { message: '管理员账号已存在', code: 'adminExists' } }));
    await expect(request('rest/spm/admin/register', { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 409,
      code: 'adminExists',
      message: '管理员账号已存在',
    });
    expect(await screen.findByText('管理员账号已存在')).toBeTruthy();
    expect(screen.queryByText(/adminExists/)).toBeNull();
    fireEvent.click(screen.getByText('显示详情'));
    expect(screen.getByText(/adminExists/)).toBeTruthy();
    expect(screen.getByText(/409/)).toBeTruthy();
    expect(screen.getByText(/rest\/spm\/admin\/register/)).toBeTruthy();
  });

  it('5xx shows the message, or the default server-error text', async () => {
    renderToasts();
    mockFetch(() => ({ status: 502 }));
    await expect(request('rest/spm/setting')).rejects.toMatchObject({ status: 502 });
    expect(await screen.findByText('服务器出错了')).toBeTruthy();
  });

  it('a body with a licence text asks to update the licence', async () => {
    renderToasts();
    mockFetch(() => ({ status: 400, body: { message: 'x', code: 'validation', license: '授权已过期' } }));
    await expect(request('rest/spm/project')).rejects.toBeInstanceOf(RequestError);
    expect(await screen.findByText('请您更新授权：授权已过期')).toBeTruthy();
  });

  it('with noMessage failures reject silently', async () => {
    renderToasts();
    mockFetch(() => ({ status: 400, body: { message: 'quiet failure', code: 'validation', fields: { name: 'bad' } } }));
    const error = await request('rest/spm/setting', { noMessage: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, message: 'quiet failure', fields: { name: 'bad' } });
    await sleep(100);
    expect(screen.queryByText('quiet failure')).toBeNull();

    // the same failure without the option is shown
    await expect(request('rest/spm/setting')).rejects.toBeInstanceOf(RequestError);
    await waitFor(() => expect(screen.getByText('quiet failure')).toBeTruthy());
  });
});

describe('the one upload and download', () => {
  /** An XMLHttpRequest whose upload reports half, then all of the body, then answers `status` with `body`. */
  const xhr = (status: number, body: unknown) =>
    fakeXhr({
      progress: [
        [5, 10],
        [10, 10],
      ],
      status,
      body,
      answerAtOnce: true,
    });

  it('sends with the token, language and headers of every call, reports progress and the end of sending', async () => {
    signIn();
    const Xhr = xhr(200, { id: 'u1' });
    vi.stubGlobal('XMLHttpRequest', Xhr);
    const progress: number[] = [];
    const onSent = vi.fn();
    const answer = await upload<{ id: string }>('rest/spm/x/upload', new FormData(), {
      query: { projectId: 'p1', password: undefined },
      headers: { 'x-request-project': 'p1' },
      onProgress: (loaded, total) => progress.push(loaded / total),
      onSent,
    });
    expect(answer).toEqual({ id: 'u1' });
    expect(progress).toEqual([0.5, 1]);
    expect(onSent).toHaveBeenCalledTimes(1);
    expect(Xhr.sent[0]?.url).toBe('/portal/rest/spm/x/upload?projectId=p1');
    expect(Xhr.sent[0]?.headers).toMatchObject({
      Authorization: `Bearer ${ADMIN.token}`,
      'x-request-project': 'p1',
    });
    vi.unstubAllGlobals();
  });

  it('signs out on 401 like every other call, and gives a refusal its message and code', async () => {
    signIn();
    window.location.hash = '#/app/backup';
    vi.stubGlobal('XMLHttpRequest', xhr(401, { message: 'expired', code: 'unauthorized' }));
    await expect(upload('rest/spm/x/upload', new FormData())).rejects.toThrow(NOT_LOGGED_IN);
    expect(getUser()).toBeNull();
    expect(sessionStorage.getItem(LOGIN_MESSAGE_KEY)).toBe('令牌到期，请重新登录');

    signIn();
    vi.stubGlobal('XMLHttpRequest', xhr(400, { message: '不是备份文件', code: 'backupInvalid' }));
    const error = await upload('rest/spm/x/upload', new FormData(), { noMessage: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).message).toBe('不是备份文件');
    expect((error as RequestError).code).toBe('backupInvalid');
    expect((error as RequestError).status).toBe(400);
    vi.unstubAllGlobals();
  });

  it('downloads with progress over the length the server gave, and the name it gave', async () => {
    signIn();
    mockFetch(() => ({
      body: 'abcdefgh',
      headers: { 'content-length': '10', 'content-disposition': "attachment; filename*=UTF-8''%E5%A4%87%E4%BB%BD.zip" },
    }));
    const seen: Array<[number, number | undefined]> = [];
    const file = await download('rest/spm/x/download/1', { onProgress: (loaded, total) => seen.push([loaded, total]) });
    expect(file.name).toBe('备份.zip');
    expect(await file.blob.text()).toBe('"abcdefgh"');
    expect(seen[0]).toEqual([0, 10]);
    expect(seen.at(-1)).toEqual([10, 10]);
  });
});

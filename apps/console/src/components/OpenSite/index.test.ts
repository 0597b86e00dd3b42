import { afterEach, describe, expect, it, vi } from 'vitest';
import { USER_KEY } from '../../services/session';
import { ADMIN, signIn } from '../../test/utils';
import { openSite, projectSsoKey, projectUserKey, siteUrl } from '.';

const HERE = { protocol: 'https:', hostname: 'console.example.com', origin: 'https://console.example.com' };
const base = { id: 'plant1', port: null, domain: null, isUseDomain: false };

describe('siteUrl', () => {
  it('opens /_p_{id}/ and /admin/_p_{id}/ on this origin by default', () => {
    expect(siteUrl(base, 'front', HERE)).toBe('https://console.example.com/_p_plant1/');
    expect(siteUrl(base, 'admin', HERE)).toBe('https://console.example.com/admin/_p_plant1/');
  });

  it('uses the project port on the current host', () => {
    const project = { ...base, port: 5001 };
    expect(siteUrl(project, 'front', HERE)).toBe('https://console.example.com:5001');
    expect(siteUrl(project, 'admin', HERE)).toBe('https://console.example.com:5001/admin');
  });

  it('uses the domain when the flag is set, adding http:// when it has no scheme', () => {
    const project = { ...base, port: 5001, domain: 'plant.example.com', isUseDomain: true };
    expect(siteUrl(project, 'front', HERE)).toBe('http://plant.example.com');
    expect(siteUrl(project, 'admin', HERE)).toBe('http://plant.example.com/admin');
    const https = { ...project, domain: 'https://plant.example.com/' };
    expect(siteUrl(https, 'front', HERE)).toBe('https://plant.example.com');
    expect(siteUrl(https, 'admin', HERE)).toBe('https://plant.example.com/admin');
  });

  it('ignores a domain without the flag, and the flag without a domain', () => {
    expect(siteUrl({ ...base, domain: 'plant.example.com' }, 'front', HERE)).toBe(
      'https://console.example.com/_p_plant1/',
    );
    expect(siteUrl({ ...base, isUseDomain: true }, 'admin', HERE)).toBe('https://console.example.com/admin/_p_plant1/');
  });
});

describe('openSite', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('clears the project login, keeps the console session, opens after 200 ms with a one-time SSO code, never the token', async () => {
    vi.useFakeTimers();
    signIn(ADMIN);
    const open = vi.fn();
    vi.stubGlobal('open', open);
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        calls.push(`${init?.method} ${String(input)}`);
        return new Response(JSON.stringify({ code: 'one-time', expiresAt: '2030-01-01T00:00:00Z' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    localStorage.setItem(projectUserKey('plant1'), 'old');
    sessionStorage.setItem(projectUserKey('plant1'), 'old');

    const url = openSite({ ...base, hasSSO: true }, 'admin');
    expect(url).toBe(`${window.location.origin}/admin/_p_plant1/`);
    expect(localStorage.getItem(projectUserKey('plant1'))).toBeNull();
    expect(sessionStorage.getItem(projectUserKey('plant1'))).toBeNull();
    expect(sessionStorage.getItem(USER_KEY)).not.toBeNull();
    expect(localStorage.getItem(projectSsoKey('plant1'))).toBeNull();
    expect(calls).toEqual(['POST /portal/rest/spm/project/plant1/sso']);

    await vi.advanceTimersByTimeAsync(199);
    expect(open).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(open).toHaveBeenCalledWith(`${url}#sso=one-time`, '_blank');
    expect(JSON.stringify(open.mock.calls)).not.toContain(ADMIN.token);
    vi.unstubAllGlobals();
  });

  it('leaves no SSO token for a project without SSO', () => {
    vi.useFakeTimers();
    signIn(ADMIN);
    vi.stubGlobal('open', vi.fn());
    localStorage.setItem(projectSsoKey('plant1'), 'stale');
    openSite({ ...base, hasSSO: false }, 'front');
    expect(localStorage.getItem(projectSsoKey('plant1'))).toBeNull();
  });
});

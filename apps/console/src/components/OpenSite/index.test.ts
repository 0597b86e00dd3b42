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

  it('clears the project login, keeps the console session, stores the SSO token and opens after 200 ms', () => {
    vi.useFakeTimers();
    signIn(ADMIN);
    const open = vi.fn();
    vi.stubGlobal('open', open);
    localStorage.setItem(projectUserKey('plant1'), 'old');
    sessionStorage.setItem(projectUserKey('plant1'), 'old');

    const url = openSite({ ...base, hasSSO: true }, 'admin');
    expect(url).toBe(`${window.location.origin}/admin/_p_plant1/`);
    expect(localStorage.getItem(projectUserKey('plant1'))).toBeNull();
    expect(sessionStorage.getItem(projectUserKey('plant1'))).toBeNull();
    expect(sessionStorage.getItem(USER_KEY)).not.toBeNull();
    expect(localStorage.getItem(projectSsoKey('plant1'))).toBe(ADMIN.token);

    vi.advanceTimersByTime(199);
    expect(open).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(open).toHaveBeenCalledWith(url, '_blank');
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

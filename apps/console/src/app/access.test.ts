import { describe, expect, it } from 'vitest';
import { canAccess, landingPath, normalizeHashPath } from './access';

const admin = { isAdmin: true, protectUrl: null };
const tenant = { isAdmin: false, protectUrl: null };
const protectedUser = { isAdmin: false, protectUrl: '#/app/model/Project/p1/detail' };

describe('access rules', () => {
  it('normalises hash paths', () => {
    expect(normalizeHashPath('#/app/x?y=1')).toBe('/app/x');
    expect(normalizeHashPath('app/x/')).toBe('/app/x');
    expect(normalizeHashPath('/')).toBe('/');
  });

  it('nobody signed in sees nothing', () => {
    expect(canAccess(null, '/app/dashboard')).toBe(false);
  });

  it('admin-only pages need isAdmin', () => {
    expect(canAccess(admin, '/app/settings', { access: 'admin' })).toBe(true);
    expect(canAccess(tenant, '/app/settings', { access: 'admin' })).toBe(false);
    expect(canAccess(tenant, '/app/dashboard', {})).toBe(true);
  });

  it('pages with a right need it among the rights', () => {
    const history = { access: 'admin', right: 'log.view' } as const;
    expect(canAccess(admin, '/app/model/Licenseinfo/list', history, ['log.view'])).toBe(true);
    expect(canAccess(admin, '/app/model/Licenseinfo/list', history, ['log.export'])).toBe(false);
    expect(canAccess(admin, '/app/model/Licenseinfo/list', history)).toBe(false);
    expect(canAccess(tenant, '/app/model/Licenseinfo/list', history, ['log.view'])).toBe(false);
  });

  it('a user with a protectUrl sees that route only', () => {
    expect(canAccess(protectedUser, '/app/model/Project/p1/detail')).toBe(true);
    expect(canAccess(protectedUser, '/app/model/Project/p1/detail/')).toBe(true);
    expect(canAccess(protectedUser, '/app/dashboard')).toBe(false);
    expect(canAccess(protectedUser, '/app/model/Project/p2/detail')).toBe(false);
    expect(canAccess({ ...protectedUser, isAdmin: true }, '/app/settings', { access: 'admin' })).toBe(false);
  });

  it('lands on the redirect, else the protected route, else home', () => {
    expect(landingPath('/app/settings', tenant, '/app/dashboard')).toBe('/app/settings');
    expect(landingPath(null, tenant, '/app/dashboard')).toBe('/app/dashboard');
    expect(landingPath(null, protectedUser, '/app/dashboard')).toBe('/app/model/Project/p1/detail');
    expect(landingPath('//evil.example', tenant, '/app/dashboard')).toBe('/app/dashboard');
    expect(landingPath('/login', tenant, '/app/dashboard')).toBe('/app/dashboard');
  });
});

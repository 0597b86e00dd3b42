import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../services/audit';
import { type MockCall, mockFetch, renderPage, signIn } from '../../test/utils';
import { listQuery, pathOf, tenant } from '../tenants/testFixtures';
import AuditPage from '.';

const entry = (id: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  at: '2026-03-01T10:00:00.000Z',
  actorId: 'admin',
  actorName: 'Administrator',
  tenantId: 'acme',
  action: 'tenant.update',
  objectType: 'tenant',
  objectId: 'acme',
  ip: '10.0.0.8',
  detail: null,
  ...overrides,
});

function api() {
  return mockFetch((call) => {
    const path = pathOf(call);
    if (path === '/portal/rest/spm/user/admin') return { body: tenant('admin', { isAdmin: true, grant: null }) };
    if (path === '/portal/rest/spm/audit') {
      const skip = Number(listQuery(call).skip ?? 0);
      const rows = [
        entry(100 - skip, { action: 'project.delete', objectType: 'project', objectId: 'p1' }),
        entry(99 - skip),
      ];
      return { body: rows, headers: { count: '45' } };
    }
    return undefined;
  });
}

const auditCalls = (calls: MockCall[]) => calls.filter((c) => pathOf(c) === '/portal/rest/spm/audit');

describe('audit log', () => {
  it('lists entries newest first and pages with the count header', async () => {
    const { calls } = api();
    signIn();
    renderPage(<AuditPage />, { path: '/app/audit' });
    const row = await screen.findByTestId('audit-row-100');
    for (const part of ['Administrator', '删除项目', '项目', 'p1', '10.0.0.8']) expect(row.textContent).toContain(part);
    expect(listQuery(auditCalls(calls)[0] as MockCall)).toMatchObject({
      sort: { at: -1 },
      skip: 0,
      limit: 20,
      withCount: true,
    });

    fireEvent.click(screen.getByTitle('3'));
    expect(await screen.findByTestId('audit-row-60')).toBeTruthy();
    expect(listQuery(auditCalls(calls).at(-1) as MockCall)).toMatchObject({ skip: 40, limit: 20 });
  });

  it('filters by actor (id or name) and object type', async () => {
    const { calls } = api();
    signIn();
    renderPage(<AuditPage />, { path: '/app/audit' });
    await screen.findByTestId('audit-row-100');
    const object = screen.getByTestId('audit-filter-object');
    fireEvent.mouseDown(object.querySelector('[role="combobox"]') ?? object);
    fireEvent.click(await screen.findByTitle('项目'));
    fireEvent.change(screen.getByTestId('audit-filter-actor'), { target: { value: 'adm' } });
    fireEvent.click(screen.getByTestId('audit-search'));
    await waitFor(() => expect(auditCalls(calls)).toHaveLength(2));
    expect(listQuery(auditCalls(calls)[1] as MockCall).filter).toEqual({
      objectType: 'project',
      or: [{ actorId: { like: 'adm' } }, { actorName: { like: 'adm' } }],
    });
  });
});

import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, renderPage, signIn } from '../../../test/utils';
import { project } from '../testFixtures';
import ProjectDetailPage from '.';

configure({ asyncUtilTimeout: 5000 });

function renderDetail(id: string) {
  signIn();
  renderPage(<ProjectDetailPage />, { path: '/app/model/Project/:id/detail', url: `/app/model/Project/${id}/detail` });
}

describe('project detail', () => {
  it('shows the project read-only with its licence, and opens its sites', async () => {
    const loaded = project('plant1', { port: 5005, remarks: 'north site', industry: 'heating' });
    mockFetch((call) => (call.url === '/portal/rest/spm/project/plant1' ? { body: loaded } : undefined));
    const open = vi.fn();
    vi.stubGlobal('open', open);
    renderDetail('plant1');
    const detail = await screen.findByTestId('project-detail');
    expect(detail.textContent).toContain('north site');
    expect(detail.textContent).toContain('供热');
    expect(screen.getByTestId('project-detail-devices').textContent).toBe('设备：5 / 在线：3');
    expect(screen.getByTestId('licence-detail-userCount').textContent).toContain('15');

    fireEvent.click(screen.getByTestId('project-detail-admin'));
    await waitFor(() => expect(open).toHaveBeenCalledWith(`http://${window.location.hostname}:5005/admin`, '_blank'));

    fireEvent.click(screen.getByTestId('project-detail-edit'));
    expect((await screen.findByTestId('location')).textContent).toBe('/app/model/Project/plant1/edit');
  });

  it('opens the media library', async () => {
    mockFetch((call) => (call.url === '/portal/rest/spm/project/plant1' ? { body: project('plant1') } : undefined));
    renderDetail('plant1');
    fireEvent.click(await screen.findByTestId('project-detail-media'));
    expect((await screen.findByTestId('location')).textContent).toBe('/app/model/Project/plant1/media');
  });

  it("shows the project's data: documents and size in all and per collection", async () => {
    mockFetch((call) => {
      if (call.url === '/portal/rest/spm/project/plant1') return { body: project('plant1') };
      if (call.url === '/portal/rest/spm/project/plant1/data-stats') {
        return {
          body: {
            documents: 12_345,
            bytes: 3 * 1024 * 1024,
            files: { fileServer: 5 * 1024 * 1024, html: 0, truncated: false },
            collections: [
              { collection: 'dashboard', documents: 45, bytes: 1024 },
              { collection: 'data_record', documents: 12_300, bytes: 3 * 1024 * 1024 - 1024 },
            ],
          },
        };
      }
      return undefined;
    });
    renderDetail('plant1');
    await waitFor(() => expect(screen.getByTestId('project-data-documents').textContent).toBe('12,345'));
    const data = screen.getByTestId('project-data');
    expect(data.textContent).toContain('3.0 MB');
    expect(data.textContent).toContain('data_record');
    expect(data.textContent).toContain('1.0 KB');
    expect(screen.getByTestId('project-data-files').textContent).toBe('5.0 MB');
  });

  it('says so when the project does not exist', async () => {
    mockFetch(() => ({ status: 404, body: { message: '请求的资源不存在', code: 'notFound' } }));
    renderDetail('gone');
    expect(await screen.findByText('项目不存在')).toBeTruthy();
  });
});

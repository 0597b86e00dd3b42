import type { TemplateView } from '@gantry/shared';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderPage, signIn, TENANT } from '../../test/utils';
import TemplatesPage from '.';

configure({ asyncUtilTimeout: 5000 });

function template(id: string, overrides: Partial<TemplateView> = {}): TemplateView {
  return {
    id,
    schemaId: id,
    name: `Template ${id}`,
    developer: 'Gantry solutions team',
    contact: 'solutions@gantry.example',
    industry: 'heating',
    card_display: { cover: `/portal/rest/spm/templates/${id}/cover.svg`, intro: `Intro of ${id}` },
    template_description: `The long description of ${id}`,
    images: [`/portal/rest/spm/templates/${id}/images/1.svg`],
    num_installed: 7,
    updated_at: '2026-11-01T00:00:00.000Z',
    publish_time: '2026-10-01T08:00:00.000Z',
    app_info: { models: 2, nodes: 12, views: 3, worksheets: 2, reports: 1, flows: 1 },
    plan_detail: null,
    type: 'project template',
    source: 'builtin',
    published: true,
    mine: false,
    usable: true,
    download_url: null,
    ...overrides,
  };
}

const MINE = template('own', {
  name: 'Own template',
  source: 'tenant',
  mine: true,
  download_url: '/portal/rest/spm/templates/own/package',
});

const ALL = [
  template('heat', { name: 'Heating station monitoring' }),
  template('oil', { name: 'Oilfield well monitoring', industry: 'oilfield', usable: false }),
  MINE,
];

function server() {
  return mockFetch((call) => {
    const url = new URL(call.url, 'http://localhost');
    if (url.pathname === '/portal/rest/spm/templates/own' && call.method === 'PATCH') {
      return { body: { ...MINE, ...(call.body as object) } };
    }
    if (url.pathname === '/portal/rest/spm/templates/import' && call.method === 'POST') {
      return { body: template('imported', { source: 'tenant', mine: true }) };
    }
    if (url.pathname !== '/portal/rest/spm/templates') return undefined;
    const name = url.searchParams.get('name_contains')?.toLowerCase();
    const industry = url.searchParams.get('industry');
    const body = ALL.filter(
      (t) => (!name || t.name.toLowerCase().includes(name)) && (!industry || t.industry === industry),
    );
    return { body, headers: { count: String(body.length) } };
  });
}

describe('template gallery', () => {
  it('shows cards with cover, developer and intro, and searches by name on the server', async () => {
    const { calls } = server();
    signIn(TENANT);
    renderPage(<TemplatesPage />, { path: '/app/templates' });
    const heat = await screen.findByTestId('template-card-heat');
    expect(within(heat).getByText('Heating station monitoring')).toBeTruthy();
    expect(within(heat).getByText('Intro of heat')).toBeTruthy();
    expect(within(heat).getByText('Gantry solutions team')).toBeTruthy();
    expect(heat.querySelector('img')?.getAttribute('src')).toBe('/portal/rest/spm/templates/heat/cover.svg');
    expect(screen.getByTestId('template-card-oil')).toBeTruthy();

    const search =
      screen.getByTestId('templates-search').querySelector('input') ?? screen.getByTestId('templates-search');
    fireEvent.change(search, { target: { value: 'oilfield' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(screen.queryByTestId('template-card-heat')).toBeNull());
    expect(screen.getByTestId('template-card-oil')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('name_contains=oilfield'))).toBe(true);
    // A template the caller's permissions do not allow cannot be used.
    expect((screen.getByTestId('template-use-oil') as HTMLButtonElement).disabled).toBe(true);
  });

  it("offers its owner unpublish, export and delete on its own template's card, and unpublishes", async () => {
    const { calls } = server();
    signIn(TENANT);
    renderPage(<TemplatesPage />, { path: '/app/templates' });
    const own = await screen.findByTestId('template-card-own');
    expect(within(own).getByTestId('template-delete-own')).toBeTruthy();
    expect(within(own).getByTestId('template-export-own').getAttribute('href')).toBe(
      '/portal/rest/spm/templates/own/package?token=tenant-token',
    );
    // Built-ins of others: no owner actions.
    expect(within(screen.getByTestId('template-card-heat')).queryByTestId('template-delete-heat')).toBeNull();
    fireEvent.click(within(own).getByTestId('template-toggle-own'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ published: false });
  });

  it('imports a package file, and edits its own card (name, cover and images kept as uploaded URLs)', async () => {
    const cover = `/portal/rest/spm/templates/images/${'c'.repeat(64)}.png`;
    const picture = `/portal/rest/spm/templates/images/${'d'.repeat(64)}.gif`;
    ALL[2] = { ...MINE, card_display: { cover, intro: 'Mine' }, images: [picture] };
    const { calls } = server();
    signIn(TENANT);
    renderPage(<TemplatesPage />, { path: '/app/templates' });
    await screen.findByTestId('template-card-own');
    const input = screen.getByTestId('template-import-file') as HTMLInputElement;
    const file = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'package.zip', { type: 'application/zip' });
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(calls.some((c) => c.url.includes('templates/import'))).toBe(true));
    expect(calls.find((c) => c.url.includes('templates/import'))?.body).toBeInstanceOf(FormData);

    fireEvent.click(screen.getByTestId('template-edit-own'));
    const name = (await screen.findByTestId('template-publish-name')) as HTMLInputElement;
    expect(name.value).toBe('Own template');
    expect(screen.queryByTestId('template-publish-project')).toBeNull();
    expect(screen.getByTestId('template-publish-cover-image').getAttribute('src')).toBe(cover);
    expect(screen.getByTestId('template-publish-images-image').getAttribute('src')).toBe(picture);
    fireEvent.change(name, { target: { value: 'Own template v2' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({
      name: 'Own template v2',
      cover,
      images: [picture],
    });
    ALL[2] = MINE;
  });

  it('previews in a full-screen modal with the schemepreview fields, and Use opens the project form', async () => {
    server();
    signIn(TENANT);
    renderPage(<TemplatesPage />, { path: '/app/templates' });
    fireEvent.click(await screen.findByTestId('template-preview-heat'));
    const preview = await screen.findByTestId('template-preview');
    expect(within(preview).getByTestId('template-preview-name').textContent).toBe('Heating station monitoring');
    expect(within(preview).getByText('The long description of heat')).toBeTruthy();
    expect(within(preview).getByTestId('template-preview-contact').textContent).toBe('solutions@gantry.example');
    expect(within(preview).getByText('项目模板')).toBeTruthy();
    expect(within(preview).getByText('2026-10-01', { exact: false })).toBeTruthy();
    expect(within(preview).getByTestId('template-preview-appinfo').textContent).toContain('12');
    expect(preview.querySelectorAll('img').length).toBeGreaterThanOrEqual(2);
    fireEvent.click(within(preview).getByTestId('template-preview-use'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/app/model/Project/add?type=heat'));
  });
});

import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MediaNode } from '../../../services/media';
import { fakeXhr, type MockCall, mockFetch, renderPage, signIn } from '../../../test/utils';
import ProjectMediaPage, { filterTree, withAncestors } from '.';

configure({ asyncUtilTimeout: 5000 });

const MEDIA = '/portal/rest/spm/proxy/core/mediaLibrary';

const TREE: MediaNode[] = [
  {
    path: 'images',
    name: 'images',
    type: 'dir',
    child: [
      { path: 'images/2024', name: '2024', type: 'dir', child: [] },
      { path: 'images/logo.png', name: 'logo.png', type: 'file', size: 2048, updateTime: '2026-11-20T08:00:00.000Z' },
    ],
  },
  { path: 'readme.txt', name: 'readme.txt', type: 'file', size: 10, updateTime: '2026-11-20T08:00:00.000Z' },
];

/** Reports 40% of the upload, then answers with the stored file. */
const FakeXhr = fakeXhr({
  progress: [[40, 100]],
  body: [{ path: 'images/photo.jpg', name: 'photo.jpg', size: 100 }],
});

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.sent = [];
});

function renderMedia(handler: (call: MockCall) => { status?: number; body?: unknown } | undefined) {
  signIn();
  const mock = mockFetch((call) => {
    if (call.url.startsWith(`${MEDIA}/all/dir`)) return { body: TREE };
    if (call.url === '/portal/rest/spm/project/plant1') return { body: { id: 'plant1', name: 'North plant' } };
    return handler(call);
  });
  renderPage(<ProjectMediaPage />, { path: '/app/model/Project/:id/media', url: '/app/model/Project/plant1/media' });
  return mock;
}

describe('media library page', () => {
  it('filters the tree by name, keeping the folders that lead to a match', () => {
    expect(filterTree(TREE, 'LOGO')).toEqual([{ ...TREE[0], child: [TREE[0]?.child?.[1]] }]);
    expect(filterTree(TREE, '')).toBe(TREE);
    expect(filterTree(TREE, 'nothing')).toEqual([]);
  });

  it('shows the tree, searches it, previews an image and deletes after confirmation', async () => {
    const { calls } = renderMedia((call) =>
      call.method === 'DELETE' ? { body: { path: 'images/logo.png' } } : undefined,
    );
    await screen.findByTestId('media-node-images');
    const treeCall = calls.find((call) => call.url.startsWith(`${MEDIA}/all/dir`));
    expect(treeCall?.headers['x-request-project']).toBe('plant1');
    expect(screen.getByTestId('media-node-readme.txt')).toBeTruthy();

    fireEvent.change(screen.getByPlaceholderText('搜索文件或文件夹'), { target: { value: 'logo' } });
    await screen.findByTestId('media-node-images/logo.png');
    expect(screen.queryByTestId('media-node-readme.txt')).toBeNull();

    fireEvent.click(screen.getByTestId('media-node-images/logo.png'));
    expect((await screen.findByTestId('media-selected-path')).textContent).toBe('images/logo.png');
    const preview = screen.getByTestId('media-preview') as HTMLImageElement;
    const src = new URL(preview.src, 'http://localhost');
    expect(src.pathname).toBe(`${MEDIA}/download`);
    expect(Object.fromEntries(src.searchParams)).toEqual({
      path: 'images/logo.png',
      'x-request-project': 'plant1',
      token: 'admin-token',
      inline: 'true',
    });
    expect(screen.getByTestId('media-target').textContent).toContain('images');
    // The title names the project, not its id.
    expect(screen.getByTestId('media-title').textContent).toBe('媒体库 · North plant');
    // A preview that does not load shows an icon, not its alt text.
    fireEvent.error(preview);
    expect(await screen.findByTestId('media-preview-broken')).toBeTruthy();
    expect(screen.queryByTestId('media-preview')).toBeNull();
    // The file panel stays in sight while the list scrolls.
    expect(screen.getByTestId('media-details').style.position).toBe('sticky');

    fireEvent.click(screen.getByTestId('media-delete'));
    fireEvent.click(await screen.findByTestId('media-delete-confirm'));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
    const removal = calls.find((call) => call.method === 'DELETE');
    expect(removal?.url).toBe(`${MEDIA}?path=images%2Flogo.png`);
    expect(removal?.headers['x-request-project']).toBe('plant1');
  });

  it('creates a folder and renames, checking names before sending them', async () => {
    const { calls } = renderMedia((call) => {
      if (call.url === `${MEDIA}/dir`) return { body: { path: 'images/new', name: 'new', type: 'dir', child: [] } };
      if (call.url === `${MEDIA}/rename`) return { body: { path: 'notes.txt' } };
      return undefined;
    });
    fireEvent.click(await screen.findByTestId('media-node-images'));
    fireEvent.click(screen.getByTestId('media-new-folder'));
    const input = await screen.findByTestId('media-name-input');
    fireEvent.change(input, { target: { value: '..' } });
    expect((await screen.findByTestId('media-name-problem')).textContent).toBe('名称不能是 . 或 ..');
    expect((screen.getByTestId('media-name-ok') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'new' } });
    fireEvent.click(screen.getByTestId('media-name-ok'));
    await waitFor(() => expect(calls.some((call) => call.url === `${MEDIA}/dir`)).toBe(true));
    expect(calls.find((call) => call.url === `${MEDIA}/dir`)?.body).toEqual({ path: 'images/new' });

    fireEvent.click(await screen.findByTestId('media-node-readme.txt'));
    fireEvent.click(screen.getByTestId('media-rename'));
    const renameInput = await screen.findByTestId('media-name-input');
    expect((renameInput as HTMLInputElement).value).toBe('readme.txt');
    fireEvent.change(renameInput, { target: { value: 'notes.txt' } });
    fireEvent.click(screen.getByTestId('media-name-ok'));
    await waitFor(() => expect(calls.some((call) => call.url === `${MEDIA}/rename`)).toBe(true));
    expect(calls.find((call) => call.url === `${MEDIA}/rename`)?.body).toEqual({
      path: 'readme.txt',
      name: 'notes.txt',
    });
  });

  it('uploads into the chosen folder with progress', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { calls } = renderMedia(() => undefined);
    fireEvent.click(await screen.findByTestId('media-node-images'));
    const file = new File(['x'.repeat(100)], 'photo.jpg', { type: 'image/jpeg' });
    fireEvent.change(screen.getByTestId('media-upload-input'), { target: { files: [file] } });
    expect((await screen.findByTestId('media-progress')).textContent).toContain('40%');
    const sent = FakeXhr.sent[0];
    expect(sent?.url).toBe(`${MEDIA}/upload?path=images`);
    expect(sent?.headers['x-request-project']).toBe('plant1');
    expect(sent?.headers.Authorization).toBe('Bearer admin-token');
    expect((sent?.body.get('file') as File | undefined)?.name).toBe('photo.jpg');
    FakeXhr.finish?.();
    await waitFor(() => expect(screen.queryByTestId('media-progress')).toBeNull());
    // What the upload sets off (the toast, the tree read again) ends inside the test, not after it.
    expect(await screen.findByText('上传成功')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith(`${MEDIA}/all/dir`)).length).toBeGreaterThan(1));
  });

  it('keeps in sight what was uploaded, and what was chosen in a search once it is cleared', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { calls } = renderMedia(() => undefined);
    // Chosen, not opened: its files are not shown.
    fireEvent.click(await screen.findByTestId('media-node-images'));
    expect(screen.queryByTestId('media-node-images/logo.png')).toBeNull();
    const file = new File(['x'], 'photo.jpg', { type: 'image/jpeg' });
    fireEvent.change(screen.getByTestId('media-upload-input'), { target: { files: [file] } });
    await screen.findByTestId('media-progress');
    FakeXhr.finish?.();
    // The folder the files went into is opened.
    await screen.findByTestId('media-node-images/logo.png');
    expect(screen.getByTestId('media-node-images/2024')).toBeTruthy();
    // The tree read again after the upload is in before the user folds it: new data arriving during
    // the fold's animation could leave the folded rows on screen.
    await waitFor(() => expect(calls.filter((c) => c.url.startsWith(`${MEDIA}/all/dir`)).length).toBeGreaterThan(1));

    // Closed again by the user; a search opens it, and clearing the search keeps its choice in sight.
    fireEvent.click(
      screen
        .getByTestId('media-node-images')
        .closest('.ant-tree-treenode')
        ?.querySelector('.ant-tree-switcher') as Element,
    );
    // The tree folds with an animation, which a loaded machine may take past waitFor's default second.
    await waitFor(() => expect(screen.queryByTestId('media-node-images/logo.png')).toBeNull(), { timeout: 5000 });
    const search = screen.getByPlaceholderText('搜索文件或文件夹');
    fireEvent.change(search, { target: { value: 'logo' } });
    fireEvent.click(await screen.findByTestId('media-node-images/logo.png'));
    fireEvent.change(search, { target: { value: '' } });
    expect(await screen.findByTestId('media-node-images/logo.png')).toBeTruthy();
    expect(screen.getByTestId('media-node-readme.txt')).toBeTruthy();
  });

  it('names a folder and the folders above it', () => {
    expect(withAncestors('')).toEqual([]);
    expect(withAncestors('a')).toEqual(['a']);
    expect(withAncestors('a/b/c')).toEqual(['a', 'a/b', 'a/b/c']);
  });
});

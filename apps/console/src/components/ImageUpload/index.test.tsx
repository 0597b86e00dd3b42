import { IMAGE_UPLOAD_MAX_BYTES } from '@gantry/shared';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { mockFetch } from '../../test/utils';
import { checkImageFile, ImageUpload } from '.';

function fileInput(): HTMLInputElement {
  const input = screen.getByTestId('logo').querySelector('input[type="file"]');
  if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
  return input;
}

describe('ImageUpload', () => {
  it('accepts images up to the size limit only', () => {
    expect(checkImageFile({ type: 'image/png', size: 10 })).toBeNull();
    expect(checkImageFile({ type: 'image/svg+xml', size: 10 })).toBe('upload.notImage');
    expect(checkImageFile({ type: 'text/plain', size: 10 })).toBe('upload.notImage');
    expect(checkImageFile({ type: 'image/jpeg', size: IMAGE_UPLOAD_MAX_BYTES + 1 })).toBe('upload.tooLarge');
  });

  it('posts the file to resource/img and takes the returned url; remove clears it', async () => {
    const { calls } = mockFetch(() => ({ body: { url: '/portal/rest/spm/resource/img/abc.png' } }));
    const onChange = vi.fn();
    const { rerender } = render(
      <AppProviders>
        <ImageUpload testId="logo" value="" onChange={onChange} />
      </AppProviders>,
    );
    fireEvent.change(fileInput(), { target: { files: [new File(['png'], 'logo.png', { type: 'image/png' })] } });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('/portal/rest/spm/resource/img/abc.png'));
    expect(calls[0]?.url).toBe('/portal/rest/spm/resource/img');
    expect(calls[0]?.method).toBe('POST');
    const body = calls[0]?.body;
    if (!(body instanceof FormData)) throw new Error('not multipart');
    expect(body.get('file')).toBeInstanceOf(File);
    expect(calls[0]?.headers['Content-Type']).toBeUndefined();

    rerender(
      <AppProviders>
        <ImageUpload testId="logo" value="/portal/rest/spm/resource/img/abc.png" onChange={onChange} />
      </AppProviders>,
    );
    expect(screen.getByTestId('logo').querySelector('img')?.getAttribute('src')).toBe(
      '/portal/rest/spm/resource/img/abc.png',
    );
    fireEvent.click(screen.getByText('移除'));
    expect(onChange).toHaveBeenLastCalledWith('');
  });

  it('refuses a file that is not an image without calling the server', async () => {
    const { calls } = mockFetch(() => ({ body: { url: 'x' } }));
    const onChange = vi.fn();
    render(
      <AppProviders>
        <ImageUpload testId="logo" onChange={onChange} />
      </AppProviders>,
    );
    fireEvent.change(fileInput(), { target: { files: [new File(['hi'], 'note.txt', { type: 'text/plain' })] } });
    expect(await screen.findByText(/只能上传图片文件/)).toBeTruthy();
    expect(calls).toHaveLength(0);
    expect(onChange).not.toHaveBeenCalled();
  });
});

import { LICENCE_FILE_MAX_BYTES } from '@gantry/shared';
import { QueryClient } from '@tanstack/react-query';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type MockCall, mockFetch, renderPage, signIn } from '../../../test/utils';
import { licenceCheck, MACHINE, MACHINE_CODE } from '../testFixtures';
import LicenceUploadPage from '.';

configure({ asyncUtilTimeout: 5000 });

type Reply = { status?: number; body?: unknown };

const SIGNATURE_MESSAGE = '授权签名无效：文件被修改或不是由受信任的密钥签名';

function server(verify: () => Reply, upload: () => Reply = () => ({ body: licenceCheck({ applied: true }) })) {
  return mockFetch((call) => {
    const path = call.url.split('?')[0];
    if (path === '/portal/rest/license/machine') return { body: MACHINE };
    if (path === '/portal/rest/license/verify' && call.method === 'POST') return verify();
    if (path === '/portal/rest/license/upload' && call.method === 'POST') return upload();
    return undefined;
  });
}

const licenceFile = (name = 'acme.lic', size = 300) => new File(['x'.repeat(size)], name, { type: '' });

function chooseFile(file: File) {
  const input = screen.getByTestId('license-wizard-file-input');
  if (!(input instanceof HTMLInputElement) || input.type !== 'file') throw new Error('no file input');
  fireEvent.change(input, { target: { files: [file] } });
}

const step = () => screen.getByTestId('license-wizard-steps').getAttribute('data-step');
const posts = (calls: MockCall[], name: string) => calls.filter((c) => c.url === `/portal/rest/license/${name}`);

async function toFileStep() {
  signIn();
  renderPage(<LicenceUploadPage />, { path: '/app/license/upload' });
  const code = await screen.findByTestId('license-wizard-machine-code');
  expect(code.textContent).toContain(MACHINE_CODE);
  expect(step()).toBe('machine');
  fireEvent.click(screen.getByTestId('license-wizard-next'));
  expect(step()).toBe('file');
}

describe('licence upload wizard', () => {
  it('goes machine code → file → verification → result, applying only after the confirmation', async () => {
    const invalidate = vi.spyOn(QueryClient.prototype, 'invalidateQueries');
    const { calls } = server(() => ({ body: licenceCheck() }));
    await toFileStep();
    expect((screen.getByTestId('license-wizard-verify') as HTMLButtonElement).disabled).toBe(true);
    chooseFile(licenceFile());
    expect(screen.getByTestId('license-wizard-file-name').textContent).toContain('acme.lic');
    expect(posts(calls, 'verify')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('license-wizard-verify'));
    const verified = await screen.findByTestId('license-wizard-verified');
    expect(step()).toBe('verify');
    const [verify] = posts(calls, 'verify');
    if (!(verify?.body instanceof FormData)) throw new Error('not multipart');
    expect((verify.body.get('file') as File).name).toBe('acme.lic');
    expect(within(verified).getByTestId('license-summary-id').textContent).toBe('LIC-2026-002');
    expect(within(verified).getByTestId('license-change-measure-userCount').textContent).toBe('用户数: 100 → 200');
    expect(within(verified).getByTestId('license-change-period-validityPeriod').textContent).toBe(
      '有效期: 365天 → 730天',
    );
    // features by name and by key (the key is what the vendor's file says)
    expect(within(verified).getByTestId('license-change-features-added').textContent).toContain('视频 (video)');
    expect(within(verified).getByTestId('license-change-features-removed').textContent).toContain(
      '数据集与数据视图 (DST)',
    );
    expect(posts(calls, 'upload')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('license-wizard-apply'));
    const result = await screen.findByTestId('license-wizard-result');
    expect(step()).toBe('result');
    expect(result.textContent).toContain('授权已更新');
    expect(within(result).getByTestId('license-change-measure-userCount').textContent).toBe('用户数: 100 → 200');
    const [upload] = posts(calls, 'upload');
    expect(upload?.body instanceof FormData && (upload.body.get('file') as File).name).toBe('acme.lic');
    const keys = invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
    for (const key of ['licenceInfo', 'currentUser', 'licencePool', 'dashboard']) {
      expect(keys).toContain(JSON.stringify([key]));
    }

    fireEvent.click(screen.getByTestId('license-wizard-done'));
    expect((await screen.findByTestId('location')).textContent).toBe('/app/license');
  });

  it('says when the first licence is installed', async () => {
    const first = licenceCheck({
      changes: { first: true, measures: [], period: [], featuresAdded: [], featuresRemoved: [] },
    });
    server(
      () => ({ body: first }),
      () => ({ body: { ...first, applied: true } }),
    );
    await toFileStep();
    chooseFile(licenceFile());
    fireEvent.click(screen.getByTestId('license-wizard-verify'));
    fireEvent.click(await screen.findByTestId('license-wizard-apply'));
    const result = await screen.findByTestId('license-wizard-result');
    expect(within(result).getByTestId('license-change-first').textContent).toBe('首次安装授权');
  });

  it('shows a refusal inline, never applies it, and lets another file be chosen', async () => {
    const { calls } = server(() => ({
      status: 400,
      body: { message: SIGNATURE_MESSAGE, code: 'licenceSignature', license: SIGNATURE_MESSAGE },
    }));
    await toFileStep();
    chooseFile(licenceFile('tampered.lic'));
    fireEvent.click(screen.getByTestId('license-wizard-verify'));
    const refused = await screen.findByTestId('license-wizard-refused');
    expect(within(refused).getByTestId('license-wizard-refusal').textContent).toBe(SIGNATURE_MESSAGE);
    expect(screen.queryByTestId('license-wizard-apply')).toBeNull();
    // no toast: the wizard says it itself
    expect(screen.queryByText(`请您更新授权：${SIGNATURE_MESSAGE}`)).toBeNull();

    fireEvent.click(screen.getByTestId('license-wizard-choose-again'));
    expect(step()).toBe('file');
    expect(screen.queryByTestId('license-wizard-file-name')).toBeNull();
    expect((screen.getByTestId('license-wizard-verify') as HTMLButtonElement).disabled).toBe(true);
    expect(posts(calls, 'verify')).toHaveLength(1);
    expect(posts(calls, 'upload')).toHaveLength(0);
  });

  it('refuses a file too large to be a licence without sending it', async () => {
    const { calls } = server(() => ({ body: licenceCheck() }));
    await toFileStep();
    chooseFile(licenceFile('huge.lic', LICENCE_FILE_MAX_BYTES + 1));
    expect((await screen.findByTestId('license-wizard-too-large')).textContent).toBe('授权文件过大');
    expect((screen.getByTestId('license-wizard-verify') as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(posts(calls, 'verify')).toHaveLength(0));
  });
});

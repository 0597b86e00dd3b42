import { projectExpandSchema } from '@gantry/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Button, Form } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderPage, signIn } from '../../test/utils';
import { ExtensionFields } from './ExtensionFields';

afterEach(() => vi.unstubAllGlobals());

const expand = projectExpandSchema.parse({
  schema: {
    fields: [
      { name: 'site', title: 'Site', widget: 'location' },
      { name: 'manual', title: 'Manual', widget: 'attachment' },
      { name: 'home', title: 'Home page', widget: 'link' },
      { name: 'stage', title: 'Stage', widget: 'text' },
      { name: 'units', title: 'Units', widget: 'number' },
      { name: 'active', title: 'Active', widget: 'boolean' },
    ],
  },
  editableFields: ['site', 'manual'],
});

function renderForm(mode: 'create' | 'edit', initial: Record<string, unknown>, path: string) {
  let submitted: Record<string, unknown> | undefined;
  renderPage(
    <Form initialValues={{ extra: initial }} onFinish={(values) => (submitted = values.extra)}>
      <ExtensionFields expand={expand} mode={mode} />
      <Button htmlType="submit" data-testid="submit">
        ok
      </Button>
    </Form>,
    { path: '/app/model/Project/:id/edit', url: path },
  );
  return () => submitted;
}

describe('project extension fields', () => {
  it('edits object values with their type’s editors, not JSON: a location by its numbers, an attachment by address', async () => {
    signIn();
    mockFetch(() => undefined);
    const submitted = renderForm('create', {}, '/app/model/Project/new/edit');
    fireEvent.change(await screen.findByTestId('project-extra-site-lng'), { target: { value: '116.4' } });
    fireEvent.change(screen.getByTestId('project-extra-site-lat'), { target: { value: '39.9' } });
    fireEvent.click(screen.getByTestId('project-extra-manual-add'));
    fireEvent.change(await screen.findByTestId('project-extra-manual-url-0'), {
      target: { value: 'https://example.com/docs/manual.pdf' },
    });
    // The plain widgets are bound to the form too.
    fireEvent.change(screen.getByTestId('project-extra-stage'), { target: { value: 'commissioning' } });
    fireEvent.change(screen.getByTestId('project-extra-units'), { target: { value: '12' } });
    fireEvent.click(screen.getByTestId('project-extra-active'));
    fireEvent.click(screen.getByTestId('submit'));
    await waitFor(() =>
      expect(submitted()).toEqual({
        stage: 'commissioning',
        units: 12,
        active: true,
        site: { lng: 116.4, lat: 39.9 },
        manual: [{ url: 'https://example.com/docs/manual.pdf', name: 'manual.pdf', size: 0 }],
      }),
    );
  });

  it('shows a field that may not be edited as its value, and leaves it as it was', async () => {
    signIn();
    mockFetch(() => undefined);
    const submitted = renderForm(
      'edit',
      { home: 'https://example.com/plant', site: { lng: 1, lat: 2 } },
      '/app/model/Project/plant/edit',
    );
    const home = await screen.findByTestId('project-extra-home');
    await waitFor(() => expect(home.querySelector('a')?.getAttribute('href')).toBe('https://example.com/plant'));
    expect(home.querySelector('input, textarea')).toBeNull();
    // The attachment's upload is offered on a project that exists.
    expect(await screen.findByTestId('project-extra-manual-upload')).toBeTruthy();
    fireEvent.click(screen.getByTestId('submit'));
    await waitFor(() =>
      expect(submitted()).toMatchObject({ home: 'https://example.com/plant', site: { lng: 1, lat: 2 } }),
    );
  });
});

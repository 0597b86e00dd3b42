import type { ProjectExpand } from '@gantry/shared';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ADMIN, type MockCall, mockFetch, renderPage, signIn } from '../../test/utils';
import ProjectExpandPage from '.';

configure({ asyncUtilTimeout: 5000 });

const EXPAND: ProjectExpand = {
  schema: {
    fields: [
      {
        name: 'stage',
        title: '阶段',
        widget: 'selector',
        kind: 'normal',
        required: false,
        options: { options: [{ value: 'plan', label: '规划' }] },
      },
    ],
  },
  form: {},
  editableFields: ['stage'],
  batchChangeFields: [],
};

function server(onPatch: (call: MockCall) => { status?: number; body?: unknown }) {
  return mockFetch((call) => {
    const path = call.url.split('?')[0];
    if (path === '/portal/rest/spm/project/_expand') return { body: EXPAND };
    if (path === '/portal/rest/spm/setting' && call.method === 'PATCH') return onPatch(call);
    return undefined;
  });
}

function renderEditor() {
  signIn(ADMIN);
  renderPage(<ProjectExpandPage />, { path: '/app/settings/project' });
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

describe('project extension editor', () => {
  it('edits a selector’s options as rows, saves them and says 保存成功', async () => {
    const { calls } = server(() => ({ body: {} }));
    renderEditor();
    expect(((await screen.findByTestId('project-expand-choice-0-0-value')) as HTMLInputElement).value).toBe('plan');
    for (const [i, value, label] of [
      [1, 'run', '运行'],
      [2, 'done', '完成'],
    ] as const) {
      fireEvent.click(screen.getByTestId('project-expand-choice-add-0'));
      fireEvent.change(await screen.findByTestId(`project-expand-choice-0-${i}-value`), { target: { value } });
      fireEvent.change(input(`project-expand-choice-0-${i}-label`), { target: { value: label } });
    }
    fireEvent.click(screen.getByTestId('project-expand-save'));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.body).toMatchObject({
      projectExpand: {
        schema: {
          fields: [
            {
              name: 'stage',
              options: {
                options: [
                  { value: 'plan', label: '规划' },
                  { value: 'run', label: '运行' },
                  { value: 'done', label: '完成' },
                ],
              },
            },
          ],
        },
      },
    });
  });

  it('names the field in a translated problem on the option row, and clears it once changed', async () => {
    const { calls } = server(() => ({ body: {} }));
    renderEditor();
    await screen.findByTestId('project-expand-choice-0-0-value');
    fireEvent.click(screen.getByTestId('project-expand-choice-add-0'));
    fireEvent.change(await screen.findByTestId('project-expand-choice-0-1-value'), { target: { value: 'plan' } });
    fireEvent.click(screen.getByTestId('project-expand-save'));
    expect((await screen.findByText(/字段“阶段”/)).textContent).toBe('字段“阶段”：选项值不能重复');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    fireEvent.change(input('project-expand-choice-0-1-value'), { target: { value: 'run' } });
    await waitFor(() => expect(screen.queryByText('字段“阶段”：选项值不能重复')).toBeNull());
  });
});

import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../../app/providers';
import { createQueryClient } from '../../../../app/queryClient';
import i18n from '../../../../i18n';
import type { PublishPreview } from '../../../../services/tables';
import '../texts';
import { depthRetyped } from '../testFixtures';
import { PublishDialog } from './PublishDialog';

const PREVIEW: PublishPreview = {
  draftVersion: 4,
  records: 12,
  settingsChanged: ['permissions'],
  changes: [
    depthRetyped(10, 7),
    { field: 'note', title: 'Note', change: 'removed', from: 'text', values: 5, converted: 0, dropped: 5 },
    { field: 'rate', title: 'Rate', change: 'added', to: 'rating', values: 0, converted: 0, dropped: 0 },
  ],
};

function show(props: Partial<Parameters<typeof PublishDialog>[0]> = {}) {
  const onConfirm = vi.fn();
  render(
    <AppProviders queryClient={createQueryClient()}>
      <PublishDialog
        preview={PREVIEW}
        update
        publishing={false}
        failure={undefined}
        onConfirm={onConfirm}
        onCancel={() => undefined}
        {...props}
      />
    </AppProviders>,
  );
  return onConfirm;
}

describe('publish difference dialog', () => {
  it('says what an update publish does to the existing records, field by field', async () => {
    const onConfirm = show();
    expect((await screen.findByTestId('publish-intro')).textContent).toBe('发布后现有 12 条记录将按下列变更处理：');
    expect(screen.getByTestId('change-depth').textContent).toBe('类型变更文本 → 数字');
    expect(screen.getByTestId('change-note').textContent).toContain('删除');
    const depthRow = screen.getByTestId('change-depth').closest('tr');
    expect([...(depthRow?.querySelectorAll('td') ?? [])].slice(2).map((cell) => cell.textContent)).toEqual([
      '10',
      '7',
      '3',
    ]);
    expect(screen.getByTestId('publish-settings').textContent).toBe('其他变更：权限');
    fireEvent.click(screen.getByTestId('publish-confirm'));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('names why a publish failed, in English too', async () => {
    await i18n.changeLanguage('en');
    show({ update: false, failure: 'publish failed: The related table does not exist' });
    expect((await screen.findByTestId('publish-failure')).textContent).toBe(
      'publish failed: The related table does not exist',
    );
    expect(screen.getByTestId('publish-intro').textContent).toBe('First publish');
    expect(screen.getByTestId('change-rate').textContent).toBe('addedStar rating');
  });
});

import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, signIn } from '../../../../test/utils';
import { newField } from '../draft';
import '../texts';
import { ValueDisplay } from './ValueDisplay';

describe('value display', () => {
  it('shows a yes/no field as 是 or 否, a no never set included (not a blank cell)', () => {
    const field = newField('boolean', 'active', 'Active');
    signIn();
    renderPage(
      <>
        {[true, false, undefined, null].map((value) => (
          <span key={String(value)} data-testid={`value-${String(value)}`}>
            <ValueDisplay field={field} value={value} />
          </span>
        ))}
      </>,
      { path: '/app/model/Project/:id/tables', url: '/app/model/Project/p1/tables' },
    );
    expect(screen.getByTestId('value-true').textContent).toBe('是');
    for (const value of ['false', 'undefined', 'null'])
      expect(screen.getByTestId(`value-${value}`).textContent).toBe('否');
  });
});

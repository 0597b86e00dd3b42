import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PasswordStrength } from '.';

function meter() {
  return screen.getByTestId('strength-meter');
}

describe('PasswordStrength', () => {
  it('renders nothing while the password is empty', () => {
    render(<PasswordStrength password="" />);
    expect(screen.queryByTestId('strength-meter')).toBeNull();
  });

  it.each([
    ['abc', 'weak', 25, '弱'],
    ['abcdef', 'weak', 25, '弱'],
    ['abc123', 'medium', 50, '中'],
    ['abcd1234', 'strong', 75, '强'],
    ['Abcdefgh1234', 'strong', 75, '强'],
    ['Abcdefg1234!', 'best', 100, '极好'],
  ])('%s is %s (%i %%)', (password, tier, percent, label) => {
    render(<PasswordStrength password={password} />);
    expect(meter().getAttribute('data-tier')).toBe(tier);
    expect(meter().getAttribute('data-percent')).toBe(String(percent));
    expect(meter().querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')).toBe(String(percent));
    expect(meter().textContent).toContain(`密码强度: ${label}`);
  });
});

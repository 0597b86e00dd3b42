import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import { describe, expect, it } from 'vitest';
import { NewPasswordFields } from './NewPasswordFields';

describe('NewPasswordFields', () => {
  it('shows the strength of what is typed and checks the repeat against it', async () => {
    render(
      <Form>
        <NewPasswordFields name="pw" repeatName="pw1" label="New" repeatLabel="Again" testId="pw" repeatTestId="pw1" />
      </Form>,
    );
    expect(screen.queryByTestId('strength-meter')).toBeNull();
    fireEvent.change(screen.getByTestId('pw'), { target: { value: 'abcd1234' } });
    await waitFor(() => expect(screen.getByTestId('strength-meter').getAttribute('data-tier')).toBe('strong'));
    fireEvent.change(screen.getByTestId('pw1'), { target: { value: 'abcd1235' } });
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
  });
});

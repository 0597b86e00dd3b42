import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { PasswordStrength } from '.';
import { passwordRules, repeatRules } from './rules';

export interface NewPasswordFieldsProps {
  /** Form field names of the password and its repeat. */
  name: string;
  repeatName: string;
  label: string;
  repeatLabel: string;
  testId: string;
  repeatTestId: string;
}

/** A new password with the shared rules and strength meter, then its repeat (console.md §5). */
export function NewPasswordFields(props: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  const password = Form.useWatch<string | undefined>(props.name);
  return (
    <>
      <Form.Item name={props.name} label={props.label} rules={passwordRules(t)}>
        <Input.Password data-testid={props.testId} autoComplete="new-password" />
      </Form.Item>
      <PasswordStrength password={password} />
      <Form.Item
        name={props.repeatName}
        label={props.repeatLabel}
        dependencies={[props.name]}
        rules={repeatRules(t, props.name)}
      >
        <Input.Password data-testid={props.repeatTestId} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

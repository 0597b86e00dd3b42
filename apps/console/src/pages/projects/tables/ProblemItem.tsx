import { Form, type FormItemProps } from 'antd';
import type { ReactNode } from 'react';

/** A form item that shows its problem, when it has one, as the item's error under the input. */
export function ProblemItem({
  problem,
  ...props
}: Omit<FormItemProps, 'validateStatus' | 'help'> & { problem: ReactNode | undefined }) {
  return <Form.Item {...props} validateStatus={problem ? 'error' : undefined} help={problem || undefined} />;
}

import type { ButtonProps } from 'antd';
import type { HTMLAttributes } from 'react';

/**
 * Props that carry a data-testid. antd passes unknown props on to the DOM element, but its prop
 * types do not list data attributes: this is the one place that says so.
 */
export function withTestId<T extends object>(id: string, props?: T): T & { 'data-testid': string } {
  return { ...props, 'data-testid': id } as T & { 'data-testid': string };
}

/** A button's props with a test id (a dialog's `okButtonProps`, `cancelButtonProps`). */
export const testId = (id: string, props: ButtonProps = {}): ButtonProps => withTestId(id, props);

/** A table row's or cell's props with a test id (`onRow`, `onCell`). */
export const rowTestId = (id: string): HTMLAttributes<HTMLElement> => withTestId<HTMLAttributes<HTMLElement>>(id);

/**
 * Props objects that carry a data-testid (antd passes unknown props to the DOM element, but its
 * prop types do not list data attributes).
 */
export function withTestId<T extends object>(id: string): T & { 'data-testid': string } {
  return { 'data-testid': id } as T & { 'data-testid': string };
}

/** `flow.tableCount` → `flow-tableCount`, for test ids. */
export const slug = (path: string) => path.replace(/\./g, '-');

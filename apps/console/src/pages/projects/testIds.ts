/** `flow.tableCount` → `flow-tableCount`, for test ids. */
export const slug = (path: string) => path.replace(/\./g, '-');

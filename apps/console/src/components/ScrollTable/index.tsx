import { Table, type TableProps } from 'antd';
import type { TableRef } from 'antd/es/table';
import { useEffect, useRef } from 'react';

/** antd's scroll containers: `.ant-table-content` (scroll.x), `.ant-table-body` (scroll.y). */
const SCROLLERS = '.ant-table-content, .ant-table-body';

/**
 * antd's Table for a table with `scroll`: its scroll container takes keyboard focus, so a keyboard
 * user can reach it and scroll it with the arrow keys (WCAG 2.1.1; axe's scrollable-region-focusable,
 * e2e/a11y.spec.ts). antd renders the container itself and offers no prop for it, hence the ref.
 */
export function ScrollTable<T extends object>(props: TableProps<T>) {
  const ref = useRef<TableRef>(null);
  useEffect(() => {
    for (const scroller of ref.current?.nativeElement.querySelectorAll<HTMLElement>(SCROLLERS) ?? []) {
      scroller.tabIndex = 0;
    }
  });
  return <Table<T> ref={ref} {...props} />;
}

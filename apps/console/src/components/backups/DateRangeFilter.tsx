import { DatePicker } from 'antd';
import type { Dayjs } from 'dayjs';

/** The time-range filter of a backup list (loaded after the list: the date picker is heavy, weight/budgets.ts). */
export function DateRangeFilter({
  value,
  onChange,
  testId,
}: {
  value: [Dayjs, Dayjs] | null;
  onChange: (value: [Dayjs, Dayjs] | null) => void;
  testId: string;
}) {
  return (
    <DatePicker.RangePicker
      value={value}
      onChange={(next) => onChange(next?.[0] && next[1] ? [next[0], next[1]] : null)}
      style={{ maxWidth: '100%' }}
      data-testid={testId}
    />
  );
}

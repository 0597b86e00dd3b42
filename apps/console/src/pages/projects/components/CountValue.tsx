import { Tooltip } from 'antd';
import { displayCount } from '../projectNumbers';

/** A count, '999+' above COUNT_DISPLAY_MAX with the exact value in a tooltip; '-' when unlimited. */
export function CountValue({ value, testId, unlimited }: { value: number | null; testId: string; unlimited: string }) {
  if (value === null) return <span data-testid={testId}>{unlimited}</span>;
  const { text, exact } = displayCount(value);
  const node = (
    <span data-testid={testId} data-exact={value}>
      {text}
    </span>
  );
  return exact ? <Tooltip title={exact}>{node}</Tooltip> : node;
}

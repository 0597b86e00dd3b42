import { Grid } from 'antd';

/** The spec's dialog width (80% or 50%) from a tablet up; the whole width on a phone. */
export function useDialogWidth(share: '80%' | '50%'): string | number {
  const screens = Grid.useBreakpoint();
  if (screens.lg) return share;
  return screens.sm ? '90%' : '100%';
}

import type { Breakpoint } from 'antd';

/**
 * Card columns per antd breakpoint (console.md §2: "1, 2, 3, 4, 6 from smallest to largest screens"):
 * one on a phone, two on a tablet (sm, md: the sidebar or the tab bar takes its share), three from
 * 992 px, four from 1,200 px, six from 1,600 px.
 */
export const CARD_COLUMNS: Readonly<Record<Breakpoint, number>> = {
  xs: 1,
  sm: 2,
  md: 2,
  lg: 3,
  xl: 4,
  xxl: 6,
  xxxl: 6,
};

const LARGEST_FIRST: readonly Breakpoint[] = ['xxxl', 'xxl', 'xl', 'lg', 'md', 'sm', 'xs'];

/** The columns for the screens antd's `Grid.useBreakpoint()` reports (the largest one that matches). */
export function cardColumns(screens: Partial<Record<Breakpoint, boolean>>): number {
  const size = LARGEST_FIRST.find((breakpoint) => screens[breakpoint]);
  return CARD_COLUMNS[size ?? 'xs'];
}

/** More cards load once the window is scrolled past this share of the page (console.md §9). */
export const SCROLL_THRESHOLD = 0.8;

/** Whether the bottom of the viewport has passed `threshold` of the scrollable height. */
export function pastThreshold(
  scrollTop: number,
  viewportHeight: number,
  scrollHeight: number,
  threshold = SCROLL_THRESHOLD,
): boolean {
  if (scrollHeight <= 0) return false;
  return (scrollTop + viewportHeight) / scrollHeight >= threshold;
}

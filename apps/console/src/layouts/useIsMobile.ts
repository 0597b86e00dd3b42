import { MOBILE_BREAKPOINT } from '@gantry/shared';
import { useSyncExternalStore } from 'react';

const QUERY = `(max-width: ${MOBILE_BREAKPOINT - 0.02}px)`;

function subscribe(listener: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', listener);
  return () => list.removeEventListener('change', listener);
}

function snapshot(): boolean {
  return typeof window.matchMedia === 'function' ? window.matchMedia(QUERY).matches : false;
}

/** Below the mobile breakpoint (768 px) the bottom-tab layout is used. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false);
}

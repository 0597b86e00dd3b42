/**
 * Navigation from outside React (the request layer on 401). The router binds its `navigate`;
 * without it the hash is set directly, which the hash router follows too.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let bound: Navigate | null = null;

export function bindNavigate(navigate: Navigate | null): void {
  bound = navigate;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  if (bound) bound(to, options);
  else window.location.hash = `#${to}`;
}

/** The current hash path with its query, e.g. `/app/settings?tab=1` (`/` when empty). */
export function currentHashPath(): string {
  const hash = window.location.hash.replace(/^#/, '');
  return hash.startsWith('/') ? hash : `/${hash}`;
}

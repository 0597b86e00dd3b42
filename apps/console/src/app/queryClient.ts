import { QueryClient } from '@tanstack/react-query';

/** Failures are reported by the request layer once; retrying would repeat the toast. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
}

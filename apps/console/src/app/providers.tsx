import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AntdProvider } from './antdProvider';
import { CoreProviders } from './coreProviders';

/**
 * Every provider at once (component tests, widgets rendered alone). The console itself mounts
 * CoreProviders at the root and AntdProvider per route (app/router.tsx), so the login route loads
 * no antd.
 */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <CoreProviders queryClient={queryClient}>
      <AntdProvider>{children}</AntdProvider>
    </CoreProviders>
  );
}

import type { Settings } from '@gantry/shared';
import { Skeleton } from 'antd';
import type { ReactNode } from 'react';
import NoPermission from '../../pages/exception/NoPermission';
import { isFullSettings, useSettings } from '../../services/settings';

/**
 * Renders its children with the full settings. The server answers only the public part to anyone
 * who is not an administrator, so anything less means no permission.
 */
export function FullSettings({ children }: { children: (settings: Settings) => ReactNode }) {
  const { data, isPending } = useSettings();
  if (isPending) return <Skeleton active />;
  if (!isFullSettings(data)) return <NoPermission />;
  return children(data);
}

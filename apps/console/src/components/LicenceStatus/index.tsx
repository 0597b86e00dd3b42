import type { LicenceInfo, LicenceState } from '@gantry/shared';
import { Tag, Tooltip } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const STATE_COLOR: Record<LicenceState, string> = {
  valid: 'green',
  expired: 'red',
  notYetValid: 'orange',
  otherMachine: 'red',
  untrusted: 'red',
};

/** Why the installed licence grants nothing now (the server's reason, else the state's name); null when valid. */
export function licenceProblem(info: Pick<LicenceInfo, 'state' | 'reason'>, t: TFunction): string | null {
  if (info.state === 'valid') return null;
  return info.reason ?? t(`licence.state.${info.state}`);
}

/** The licence state as a coloured tag, with the reason in a tooltip when it is not valid. */
export function LicenceStateTag({ info }: { info: Pick<LicenceInfo, 'state' | 'reason'> }) {
  const { t } = useTranslation();
  const tag = (
    <Tag color={STATE_COLOR[info.state]} data-testid="license-state" data-state={info.state}>
      {t(`licence.state.${info.state}`)}
    </Tag>
  );
  return info.state === 'valid' || !info.reason ? tag : <Tooltip title={info.reason}>{tag}</Tooltip>;
}

/**
 * A button that may be blocked: disabled buttons get no mouse events, so the tooltip with the
 * reason hangs on a wrapper that is always there (without a title it shows nothing) and the button
 * is never remounted.
 */
export function BlockedTooltip({ reason, children }: { reason: string | null; children: ReactNode }) {
  return (
    <Tooltip title={reason ?? undefined}>
      <span style={{ display: 'inline-block', cursor: reason ? 'not-allowed' : undefined }}>{children}</span>
    </Tooltip>
  );
}

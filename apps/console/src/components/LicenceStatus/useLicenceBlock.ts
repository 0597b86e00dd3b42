import { useTranslation } from 'react-i18next';
import { useLicenceInfo } from '../../services/licence';
import { licenceProblem } from '.';

/**
 * Why the administrator cannot add projects or tenants now (console.md §6), or null: no platform
 * licence (GET license/info answers 404: `missing`, the server's own words for projects and tenants)
 * or one that grants nothing now (expired, not yet valid, another machine, untrusted key): its reason.
 */
export function useLicenceBlock(
  enabled = true,
  missing: 'licence.missing' | 'licence.none' = 'licence.missing',
): { pending: boolean; reason: string | null } {
  const { t } = useTranslation();
  const licence = useLicenceInfo({ enabled });
  if (!enabled) return { pending: false, reason: null };
  if (licence.isPending) return { pending: true, reason: null };
  if (licence.data === null) return { pending: false, reason: t(missing) };
  if (licence.data) return { pending: false, reason: licenceProblem(licence.data, t) };
  return { pending: false, reason: null };
}

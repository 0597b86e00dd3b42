import type { GrantView, LicenceInfo, MeasureValues } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { isRequestError, request } from './request';

/**
 * The pool a grant draws from (GET login/current/unUse/license): the parent's grant (the platform
 * licence, or the owning tenant's grant), what its other children hold and what is left, by measure path.
 */
export interface UnusedLicence {
  parent: GrantView | null;
  parentKind: 'platform' | 'tenant';
  allocated: MeasureValues;
  available: MeasureValues;
  /** The server's local date, YYYY-MM-DD. */
  today: string;
}

export interface UnusedLicenceParams {
  /** `project`: a project grant (from its owner's grant or the platform); `tenant`: a tenant grant. */
  target: 'project' | 'tenant';
  /** Owner tenant id of a project (`admin` = platform project); the caller when omitted. */
  owner?: string;
  /** The project or tenant being edited: its own grant does not count as allocated. */
  except?: string;
}

export function unusedLicenceKey(params: UnusedLicenceParams) {
  return ['licencePool', params.target, params.owner ?? null, params.except ?? null] as const;
}

export function fetchUnusedLicence(params: UnusedLicenceParams): Promise<UnusedLicence> {
  return request('rest/spm/login/current/unUse/license', {
    query: { target: params.target, owner: params.owner, except: params.except },
  });
}

export function useUnusedLicence(params: UnusedLicenceParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: unusedLicenceKey(params),
    queryFn: () => fetchUnusedLicence(params),
    enabled: options.enabled ?? true,
  });
}

/**
 * Where the licence information lives. docs/API.md puts it under rest/spm/ (the spec's README gives
 * the licence-info service the rest/ prefix): one constant to change if the server follows the latter.
 */
export const LICENCE_INFO_PATH = 'rest/license/info';

/** The platform licence, or null when none is installed (404 / licenceMissing). */
export async function fetchLicenceInfo(): Promise<LicenceInfo | null> {
  try {
    return await request<LicenceInfo>(LICENCE_INFO_PATH, { noMessage: true });
  } catch (error) {
    if (isRequestError(error) && (error.status === 404 || error.code === 'licenceMissing')) return null;
    throw error;
  }
}

export const LICENCE_INFO_KEY = ['licenceInfo'] as const;

export function useLicenceInfo(options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: LICENCE_INFO_KEY, queryFn: fetchLicenceInfo, enabled: options.enabled ?? true });
}

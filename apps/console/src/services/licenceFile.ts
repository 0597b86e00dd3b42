import type { LicenceCheck, MachineView } from '@gantry/shared';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { LICENCE_INFO_KEY } from './licence';
import { request } from './request';

/** This machine's code and identity (GET license/machine, administrator). */
export function fetchMachine(): Promise<MachineView> {
  return request('rest/license/machine');
}

export function useMachine() {
  return useQuery({ queryKey: ['licenceMachine'], queryFn: fetchMachine, staleTime: Number.POSITIVE_INFINITY });
}

function licenceForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file);
  return form;
}

/**
 * POST license/verify: what the file says and what it would change; nothing is applied. Refusals
 * (`licenceSignature`, `licenceMachine`, …) reject without a toast: the wizard shows the message.
 */
export function verifyLicence(file: File): Promise<LicenceCheck> {
  return request('rest/license/verify', { method: 'POST', body: licenceForm(file), noMessage: true });
}

/** POST license/upload: installs the file (checked again by the server) and answers what changed. */
export function uploadLicence(file: File): Promise<LicenceCheck> {
  return request('rest/license/upload', { method: 'POST', body: licenceForm(file), noMessage: true });
}

/** Everything that reads the platform licence, to be read again after a new one is applied. */
export const LICENCE_DEPENDENT_KEYS = [
  LICENCE_INFO_KEY,
  ['currentUser'],
  ['licencePool'],
  ['dashboard'],
  ['licenceHistory'],
];

export async function refreshAfterLicence(client: QueryClient): Promise<void> {
  await Promise.all(LICENCE_DEPENDENT_KEYS.map((queryKey) => client.invalidateQueries({ queryKey })));
}

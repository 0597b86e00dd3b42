import { randomBytes } from 'node:crypto';
import { grantSchema, LICENCE_FORMAT, localDate, PLATFORM_PRODUCT } from '@gantry/shared';
import { signLicence } from '../modules/licence/licence-signature.js';
import { developmentPrivateKey } from '../modules/licence/trusted-keys.js';

/**
 * A platform licence for `machineCode` signed with the development key (which test servers trust),
 * valid since yesterday for a year, generous enough for any test.
 */
export function developmentLicenceText(machineCode: string, features: string[] = []): string {
  return signLicence(
    {
      format: LICENCE_FORMAT,
      id: `L-${randomBytes(4).toString('hex')}`,
      product: PLATFORM_PRODUCT,
      machineCode,
      issuedAt: new Date().toISOString(),
      grant: grantSchema.parse({
        validityPeriod: 365,
        startTime: localDate(new Date(Date.now() - 86_400_000)),
        userCount: 100,
        flow: { tableCount: 100 },
        dataGathering: { point: 1000 },
        features,
      }),
    },
    developmentPrivateKey(),
  );
}

/** Uploads `developmentLicenceText` for the server's machine through the HTTP API of a running server. */
export async function uploadDevelopmentLicence(
  base: string,
  token: string,
  features: string[] = [],
): Promise<Response> {
  const machine = await fetch(`${base}/portal/rest/license/machine`, { headers: { authorization: `Bearer ${token}` } });
  const { machineCode } = (await machine.json()) as { machineCode: string };
  const form = new FormData();
  form.append('file', new Blob([developmentLicenceText(machineCode, features)]), 'platform.lic');
  return fetch(`${base}/portal/rest/license/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

import { createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import { AppError } from '../../lib/app-error.js';

/** How far ahead of this server's clock a certificate may start. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * An uploaded certificate pair (.key and .pem), checked before it is stored (issue 15 §2): both
 * must parse, the key must be the certificate's, and the certificate must be valid now. Returns
 * the certificate's host names (subject CN and DNS alternative names) and its end.
 */
export function checkCertificatePair(key: Buffer, pem: Buffer, now: Date): { names: string[]; validTo: Date } {
  let certificate: X509Certificate;
  let privateKey: KeyObject;
  try {
    certificate = new X509Certificate(pem);
  } catch {
    throw new AppError('siteCertificateInvalid', { params: { file: '.pem' } });
  }
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new AppError('siteCertificateInvalid', { params: { file: '.key' } });
  }
  const matches =
    certificate.checkPrivateKey(privateKey) &&
    createPublicKey(privateKey)
      .export({ format: 'der', type: 'spki' })
      .equals(certificate.publicKey.export({ format: 'der', type: 'spki' }));
  if (!matches) throw new AppError('siteCertificateMismatch');
  const validFrom = new Date(certificate.validFrom);
  const validTo = new Date(certificate.validTo);
  if (validTo.getTime() <= now.getTime()) {
    throw new AppError('siteCertificateExpired', { params: { date: validTo.toISOString().slice(0, 10) } });
  }
  // A few minutes of clock difference with the machine that made it are allowed.
  if (validFrom.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw new AppError('siteCertificateNotYetValid', { params: { date: validFrom.toISOString().slice(0, 10) } });
  }
  const names = new Set<string>();
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(certificate.subject)?.[1];
  if (cn) names.add(cn.toLowerCase());
  for (const entry of (certificate.subjectAltName ?? '').split(',')) {
    const match = /^\s*DNS:(.+)$/.exec(entry);
    if (match?.[1]) names.add(match[1].trim().toLowerCase());
  }
  return { names: [...names], validTo };
}

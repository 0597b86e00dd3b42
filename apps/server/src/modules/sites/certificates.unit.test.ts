import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import { selfSigned } from '../../test/self-signed.js';
import { checkCertificatePair } from './certificates.js';

const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
  return 'accepted';
};

describe('certificate pairs', () => {
  const a = selfSigned('plant.example.com');
  const b = selfSigned('other.example.com');
  const now = new Date();

  it('a matching, current pair: accepted, with its names', () => {
    const checked = checkCertificatePair(a.key, a.pem, now);
    expect(checked.names.sort()).toEqual(['plant.example.com', 'www.plant.example.com']);
  });

  it('a key of another certificate, an expired or not yet valid one, unreadable files: refused, saying why', () => {
    expect(refusal(() => checkCertificatePair(b.key, a.pem, now))).toBe('siteCertificateMismatch');
    expect(refusal(() => checkCertificatePair(a.key, a.pem, new Date(now.getTime() + 3 * 86_400_000)))).toBe(
      'siteCertificateExpired',
    );
    expect(refusal(() => checkCertificatePair(a.key, a.pem, new Date(now.getTime() - 86_400_000)))).toBe(
      'siteCertificateNotYetValid',
    );
    expect(refusal(() => checkCertificatePair(a.key, Buffer.from('not a certificate'), now))).toBe(
      'siteCertificateInvalid',
    );
    expect(refusal(() => checkCertificatePair(Buffer.from('-----BEGIN PRIVATE KEY-----\nxx'), a.pem, now))).toBe(
      'siteCertificateInvalid',
    );
  });
});

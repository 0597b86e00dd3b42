import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A self-signed certificate for `name` (and www.`name`), valid from now for `days`, with its P-256
 * key: made by openssl as a site owner would make one (tests of HTTPS sites and certificate uploads).
 */
export function selfSigned(name: string, days = 2): { key: Buffer; pem: Buffer } {
  const dir = mkdtempSync(path.join(tmpdir(), 'gantry-cert-'));
  try {
    const key = path.join(dir, 'site.key');
    const pem = path.join(dir, 'site.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        pem,
        '-days',
        String(days),
        '-subj',
        `/CN=${name}`,
        '-addext',
        `subjectAltName=DNS:${name},DNS:www.${name}`,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key), pem: readFileSync(pem) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

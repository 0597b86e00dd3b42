import { certificateFilesProblem } from '@gantry/shared';

/** One certificate file: a new one chosen here (with the File) or one already stored (name only). */
export interface CertificateFile {
  name: string;
  file?: File;
}
export interface CertificatePair {
  key?: CertificateFile;
  pem?: CertificateFile;
}

export function certificateKind(name: string): 'key' | 'pem' | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.key')) return 'key';
  if (lower.endsWith('.pem')) return 'pem';
  return null;
}

const isStored = (pair: CertificatePair) => Boolean(pair.key && !pair.key.file) || Boolean(pair.pem && !pair.pem.file);

/**
 * The pair after choosing `file`, or null when the shared certificate rule rejects it (not a .key
 * or .pem, or a name with other characters). A file of a kind already chosen replaces it; a new file
 * next to a stored pair starts a new pair, since a stored file cannot be sent again.
 */
export function addCertificate(
  pair: CertificatePair,
  file: { name: string } & Partial<Pick<CertificateFile, 'file'>>,
): CertificatePair | null {
  const kind = certificateKind(file.name);
  if (!kind) return null;
  const next: CertificatePair = { ...(isStored(pair) ? {} : pair), [kind]: { name: file.name, file: file.file } };
  const other = kind === 'key' ? next.pem : next.key;
  // the shared rule checks a whole pair: a lone file is checked next to a well-named partner
  const names = [file.name, other?.name ?? (kind === 'key' ? 'partner.pem' : 'partner.key')];
  return certificateFilesProblem(names) ? null : next;
}

export const certificatesComplete = (pair: CertificatePair | undefined) => Boolean(pair?.key && pair.pem);

/** Both files when they were chosen here (to POST project/cert), else null. */
export function newCertificates(pair: CertificatePair | undefined): { key: File; pem: File } | null {
  const key = pair?.key?.file;
  const pem = pair?.pem?.file;
  return key && pem ? { key, pem } : null;
}

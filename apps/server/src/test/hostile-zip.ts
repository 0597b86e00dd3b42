import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { BACKUP_ARCHIVE } from '@gantry/shared';

/**
 * Zip files written byte by byte, so a test can make what no honest writer makes: central records
 * that share one local entry (a split bomb), a local header that names other bytes than its central
 * record, declared sizes that lie. Each local entry is written once; each central record points at
 * one of them and may claim another name or size.
 */
export interface LocalPart {
  name: string;
  /** The entry's bytes before compression. */
  data?: Buffer;
  /** Or, for large runs: the deflated bytes, with the size and CRC-32 of what they inflate to. */
  deflated?: { bytes: Buffer; size: number; crc: number };
  stored?: boolean;
}

export interface CentralPart {
  /** Which local part this record points at. */
  local: number;
  /** The name this record claims (defaults to the local part's). */
  name?: string;
  /** Sizes this record claims (defaults to the local part's). */
  uncompressedSize?: number;
}

interface Written {
  offset: number;
  method: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  name: string;
}

export function rawZip(locals: LocalPart[], centrals?: CentralPart[]): Buffer {
  const chunks: Buffer[] = [];
  let at = 0;
  const push = (chunk: Buffer) => {
    chunks.push(chunk);
    at += chunk.length;
  };
  const written: Written[] = locals.map((part) => {
    const data = part.data ?? Buffer.alloc(0);
    const method = part.stored ? 0 : 8;
    const bytes = part.deflated?.bytes ?? (part.stored ? data : deflateRawSync(data));
    const crc = part.deflated?.crc ?? crc32(data);
    const uncompressedSize = part.deflated?.size ?? data.length;
    const name = Buffer.from(part.name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6);
    header.writeUInt16LE(method, 8);
    header.writeUInt32LE(crc >>> 0, 14);
    header.writeUInt32LE(bytes.length, 18);
    header.writeUInt32LE(uncompressedSize, 22);
    header.writeUInt16LE(name.length, 26);
    const offset = at;
    push(header);
    push(name);
    push(bytes);
    return { offset, method, crc, compressedSize: bytes.length, uncompressedSize, name: part.name };
  });
  const directoryAt = at;
  const records: CentralPart[] = centrals ?? locals.map((_, local) => ({ local }));
  for (const record of records) {
    const entry = written[record.local] as Written;
    const name = Buffer.from(record.name ?? entry.name);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(entry.method, 10);
    header.writeUInt32LE(entry.crc >>> 0, 16);
    header.writeUInt32LE(entry.compressedSize, 20);
    header.writeUInt32LE(record.uncompressedSize ?? entry.uncompressedSize, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(entry.offset, 42);
    push(header);
    push(name);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(records.length, 8);
  end.writeUInt16LE(records.length, 10);
  end.writeUInt32LE(at - directoryAt, 12);
  end.writeUInt32LE(directoryAt, 16);
  push(end);
  return Buffer.concat(chunks);
}

/**
 * `prefix` then `byte` up to `size` bytes, deflated at level 9 a MiB at a time (the run is never whole
 * in memory), with its CRC-32 and SHA-256.
 */
export async function deflatedRun(
  size: number,
  byte = 0,
  prefix = Buffer.alloc(0),
): Promise<{ bytes: Buffer; size: number; crc: number; sha256: string }> {
  const deflater = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflater.on('data', (chunk: Buffer) => out.push(chunk));
  const done = once(deflater, 'end');
  const hash = createHash('sha256');
  const step = Buffer.alloc(1 << 20, byte);
  let crc = 0;
  const feed = async (piece: Buffer) => {
    crc = crc32(piece, crc);
    hash.update(piece);
    if (!deflater.write(piece)) await once(deflater, 'drain');
  };
  await feed(prefix);
  for (let left = size - prefix.length; left > 0; left -= step.length) {
    await feed(left >= step.length ? step : step.subarray(0, left));
  }
  deflater.end();
  await done;
  return { bytes: Buffer.concat(out), size, crc, sha256: hash.digest('hex') };
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * A project archive's manifest (project `elsewhere`, every kind) that lists these entries, folders
 * and modules as they are: a hostile test then spoils one thing.
 */
export function projectManifest(
  entries: Array<{ path: string; size: number; sha256: string }>,
  dirs: string[] = [],
  modules: Record<string, { documents: number }> = {},
) {
  return {
    format: BACKUP_ARCHIVE.format,
    version: BACKUP_ARCHIVE.version,
    project: { id: 'elsewhere', name: 'Elsewhere' },
    createTime: '2026-01-01T00:00:00.000Z',
    appVersion: 'test',
    item: { fileServer: true, html: true, mongodb: true },
    excludedDirs: [],
    modules,
    dirs,
    entries,
  };
}

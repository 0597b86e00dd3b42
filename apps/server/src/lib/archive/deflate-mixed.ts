import { promisify } from 'node:util';
import { constants, deflateRaw } from 'node:zlib';

/**
 * Raw deflate of a whole buffer at level 1 (like `zip -1`), except for the parts that do not
 * compress. Deflate spends most of its time searching for repeats in random-looking bytes (photos,
 * video, other archives) and then writes them out nearly as they were; here such parts are written
 * as stored blocks at the speed of a copy. The buffer is looked at in 64 KiB chunks: a chunk whose
 * bytes (sampled) are near 8 bits of entropy is stored; each run of the other chunks is deflated on
 * the thread pool, independently (several at once), and ended by a sync flush so that the pieces
 * join into one valid raw deflate stream, as pigz joins its blocks; one empty final stored block ends
 * it. Any inflater reads the result. A buffer that is one compressible run is deflated as before.
 * A stream is deflated the same way, piece by piece (`deflatePiece`, then `FINAL_EMPTY_BLOCK`).
 */

export const MIXED_CHUNK = 64 * 1024;
/**
 * Bits per byte from which a chunk is stored: random bytes estimate at 8.00 ± 0.01 (with the
 * correction below), text and JSON at 3–6. A chunk that is a tenth or more text among random bytes
 * estimates below (7.87–7.92 at a seventh): it is deflated whole, so its text is compressed.
 */
const STORED_ENTROPY = 7.95;
/** Every SAMPLE_STRIDE-th byte is counted: odd, so that records of 2, 4, 8… bytes do not fool it. */
const SAMPLE_STRIDE = 7;
const STORED_BLOCK_MAX = 0xffff;
const LEVEL_1 = { level: 1, memLevel: 9 } as const;
/** BFINAL=1, BTYPE=00 (stored), LEN=0, NLEN=0xffff. */
export const FINAL_EMPTY_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
const deflate = promisify(deflateRaw);

/** Whether `bytes[start, end)` looks incompressible: the Shannon entropy of sampled bytes. */
export function looksIncompressible(bytes: Uint8Array, start: number, end: number): boolean {
  const counts = new Uint32Array(256);
  let samples = 0;
  for (let at = start; at < end; at += SAMPLE_STRIDE) {
    const byte = bytes[at] ?? 0;
    counts[byte] = (counts[byte] ?? 0) + 1;
    samples++;
  }
  // Too few samples cannot show 8 bits (log2(samples) caps the estimate): such a tail is deflated.
  if (samples < 1024) return false;
  let entropy = 0;
  let seen = 0;
  for (const count of counts) {
    if (count === 0) continue;
    seen++;
    const p = count / samples;
    entropy -= p * Math.log2(p);
  }
  // Counted from samples, entropy comes out low by about (values seen - 1) / (2 samples ln 2)
  // (Miller–Madow): 0.02 bits at 64 KiB, 0.18 at the fewest samples judged.
  return entropy + (seen - 1) / (2 * samples * Math.LN2) >= STORED_ENTROPY;
}

/** `bytes` as non-final stored blocks (each at most 65,535 bytes). */
function storedBlocks(bytes: Uint8Array): Buffer {
  const blocks = Math.ceil(bytes.length / STORED_BLOCK_MAX);
  const out = Buffer.allocUnsafe(bytes.length + blocks * 5);
  let written = 0;
  for (let at = 0; at < bytes.length; at += STORED_BLOCK_MAX) {
    const length = Math.min(STORED_BLOCK_MAX, bytes.length - at);
    out[written] = 0x00; // BFINAL=0, BTYPE=00, then padding to the byte
    out.writeUInt16LE(length, written + 1);
    out.writeUInt16LE(~length & 0xffff, written + 3);
    out.set(bytes.subarray(at, at + length), written + 5);
    written += 5 + length;
  }
  return out;
}

function runsOf(bytes: Buffer): Array<{ start: number; end: number; stored: boolean }> {
  const runs: Array<{ start: number; end: number; stored: boolean }> = [];
  for (let start = 0; start < bytes.length; start += MIXED_CHUNK) {
    const end = Math.min(bytes.length, start + MIXED_CHUNK);
    const stored = looksIncompressible(bytes, start, end);
    const last = runs.at(-1);
    if (last && last.stored === stored) last.end = end;
    else runs.push({ start, end, stored });
  }
  return runs;
}

/**
 * A piece of a raw deflate stream holding `bytes`, not final and ending on a byte boundary: pieces
 * follow one another, and `FINAL_EMPTY_BLOCK` ends the stream.
 */
export async function deflatePiece(bytes: Buffer): Promise<Buffer> {
  const pieces = runsOf(bytes).map(({ start, end, stored }) =>
    stored
      ? storedBlocks(bytes.subarray(start, end))
      : deflate(bytes.subarray(start, end), { ...LEVEL_1, finishFlush: constants.Z_SYNC_FLUSH }),
  );
  return Buffer.concat(await Promise.all(pieces));
}

/** Raw deflate of `bytes` (see the module's comment). */
export async function deflateMixed(bytes: Buffer): Promise<Buffer> {
  const runs = runsOf(bytes);
  const [only] = runs;
  if (runs.length === 0 || (runs.length === 1 && only && !only.stored)) return deflate(bytes, LEVEL_1);
  return Buffer.concat([await deflatePiece(bytes), FINAL_EMPTY_BLOCK]);
}

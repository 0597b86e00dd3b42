import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { TEMPLATE_IMAGE_LIMITS, TEMPLATE_IMAGE_PATH, TEMPLATE_IMAGE_URL } from '@gantry/shared';
import { AppError } from '../../lib/app-error.js';
import type { FileStore } from '../../lib/file-store.js';
import { detectImage } from '../uploads/image-type.js';

/** The types a template image may be (a subset of the uploads' image types), by extension. */
const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, at: number) => u16le(b, at) | ((b[at + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, at: number) => u16be(b, at) * 65536 + u16be(b, at + 2);
const tag = (b: Uint8Array, at: number) => String.fromCharCode(...b.subarray(at, at + 4));

/**
 * The pixel size a picture's header declares, or undefined when it cannot be read (a truncated or
 * forged file). Only the header is read: nothing is decoded.
 */
export function imageSize(bytes: Uint8Array, ext: string): { width: number; height: number } | undefined {
  if (ext === 'png') {
    // The first chunk must be IHDR: width and height as 32-bit big-endian.
    if (bytes.length < 33 || tag(bytes, 12) !== 'IHDR') return undefined;
    return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
  }
  if (ext === 'gif') {
    if (bytes.length < 13) return undefined;
    return { width: u16le(bytes, 6), height: u16le(bytes, 8) };
  }
  if (ext === 'webp') {
    if (bytes.length < 30) return undefined;
    const chunk = tag(bytes, 12);
    if (chunk === 'VP8 ') return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = (bytes[21] ?? 0) | ((bytes[22] ?? 0) << 8) | ((bytes[23] ?? 0) << 16) | ((bytes[24] ?? 0) << 24);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8X') return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
    return undefined;
  }
  if (ext === 'jpg') {
    // Walk the markers to the first start-of-frame (SOF0–SOF15 but DHT, JPG, DAC).
    let at = 2;
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) return undefined;
      const marker = bytes[at + 1] ?? 0;
      if (marker === 0xff) {
        at++;
        continue;
      }
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        at += 2;
        continue;
      }
      const length = u16be(bytes, at + 2);
      if (length < 2) return undefined;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: u16be(bytes, at + 7), height: u16be(bytes, at + 5) };
      }
      if (marker === 0xda || marker === 0xd9) return undefined;
      at += 2 + length;
    }
  }
  return undefined;
}

/**
 * Checks an uploaded template image: a PNG, JPEG, GIF or WebP by its first bytes (never its name or
 * declared type; SVG and anything else refused), at most TEMPLATE_IMAGE_LIMITS.bytes, with a header
 * that declares a size of at most sideMax × sideMax. Answers its extension and type.
 */
export function checkTemplateImage(bytes: Uint8Array): { ext: string; mime: string } {
  if (bytes.length > TEMPLATE_IMAGE_LIMITS.bytes) {
    throw new AppError('payloadTooLarge', {
      message: 'template.imageTooLarge',
      params: { mb: TEMPLATE_IMAGE_LIMITS.bytes / 1024 / 1024 },
    });
  }
  const image = detectImage(bytes);
  const mime = image && TYPES[image.ext];
  if (!image || !mime) throw new AppError('notImage', { message: 'template.imageType' });
  const size = imageSize(bytes, image.ext);
  const side = TEMPLATE_IMAGE_LIMITS.sideMax;
  if (!size || size.width < 1 || size.height < 1 || size.width > side || size.height > side) {
    throw new AppError('notImage', { message: 'template.imageDimensions', params: { side } });
  }
  return { ext: image.ext, mime };
}

/** The store's area (the data directory's folder) of template images. */
const AREA = 'template-images';
/** Images looked at by one sweep of object storage. */
const SWEEP_MAX = 100_000;

/** A stored image's name (its SHA-256 and extension), as it appears at the end of its URL. */
const NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

/**
 * Template images: `<data>/template-images/<sha256>.<ext>`, written atomically (a temporary file
 * renamed), or, with object storage (`shelf`), the store's area `template-images`; the same picture
 * stored once. Read back by name only (a name it made).
 */
export class TemplateImageStore {
  constructor(
    private readonly dataDir: string,
    private readonly shelf?: FileStore,
  ) {}

  folder(): string {
    return path.join(this.dataDir, AREA);
  }

  private file(name: string): string {
    if (!NAME.test(name)) throw new AppError('notFound');
    return path.join(this.folder(), name);
  }

  /** Checks and stores an image; answers its URL. */
  async save(bytes: Buffer): Promise<string> {
    const { ext } = checkTemplateImage(bytes);
    const name = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
    const target = this.file(name);
    if (this.shelf) {
      await this.shelf.write(AREA, [name], Readable.from([bytes]), { maxBytes: bytes.length, overwrite: true });
    } else {
      await mkdir(this.folder(), { recursive: true });
      const temporary = `${target}.${randomUUID()}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, target);
    }
    return `${TEMPLATE_IMAGE_PATH}/${name}`;
  }

  async read(name: string): Promise<{ mime: string; bytes: Buffer }> {
    const file = this.file(name);
    const mime = TYPES[name.slice(name.lastIndexOf('.') + 1)];
    const bytes = this.shelf
      ? await this.shelf
          .readWhole(AREA, [name], TEMPLATE_IMAGE_LIMITS.bytes)
          .then((found) => found.bytes)
          .catch(() => undefined)
      : await readFile(file).catch(() => undefined);
    if (!mime || !bytes) throw new AppError('notFound');
    return { mime, bytes };
  }

  /** When a stored image was written (undefined: none). */
  private async changed(name: string): Promise<number | undefined> {
    if (this.shelf) return (await this.shelf.stat(AREA, [name]))?.updateTime.getTime();
    return (await stat(this.file(name)).catch(() => undefined))?.mtimeMs;
  }

  /** Whether every URL names an image stored here ('template.imageMissing' on the field otherwise). */
  async checkExists(field: string, urls: readonly string[]): Promise<void> {
    for (const url of urls) {
      const name = TEMPLATE_IMAGE_URL.test(url) ? url.slice(url.lastIndexOf('/') + 1) : '';
      const found = name !== '' && NAME.test(name) && (await this.changed(name)) !== undefined;
      if (!found) throw new AppError('validation', { fields: { [field]: 'template.imageMissing' } });
    }
  }

  /** The stored names (at most SWEEP_MAX from object storage). */
  private async names(): Promise<string[]> {
    if (!this.shelf) return readdir(this.folder()).catch(() => [] as string[]);
    if (!(await this.shelf.hasArea(AREA))) return [];
    const names: string[] = [];
    for await (const entry of this.shelf.entries(AREA, SWEEP_MAX)) {
      if (entry.type === 'file' && entry.segments.length === 1) names.push(entry.segments[0] ?? '');
    }
    return names;
  }

  /**
   * Removes images no template names that are older than `before` (uploads never used). The names in
   * use are read only when there is an image (a start without any runs no statement for them).
   */
  async sweep(inUse: () => Promise<ReadonlySet<string>>, before: number): Promise<void> {
    let used: ReadonlySet<string> | undefined;
    for (const name of await this.names()) {
      used ??= await inUse();
      if (used.has(name)) continue;
      const changed = (await this.changed(name).catch(() => undefined)) ?? Number.POSITIVE_INFINITY;
      if (changed >= before) continue;
      if (this.shelf) await this.shelf.remove(AREA, [name]).catch(() => {});
      else await rm(path.join(this.folder(), name), { force: true });
    }
  }
}

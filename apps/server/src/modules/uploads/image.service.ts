import { createHash } from 'node:crypto';
import { AppError } from '../../lib/app-error.js';
import type { Storage } from '../../lib/storage.js';
import { detectImage, mimeOfExtension } from './image-type.js';

const AREA = 'images';

/**
 * Uploaded images (logos and backgrounds): checked by content, stored under a name made of their
 * SHA-256 (the same image is stored once and can be cached forever), read back by that name.
 */
export class ImageService {
  constructor(private readonly storage: Storage) {}

  /** Stores an image and answers its file name; anything that is not a known image is refused. */
  async save(bytes: Buffer): Promise<string> {
    const image = detectImage(bytes);
    if (!image) throw new AppError('notImage', { fields: { file: 'upload.notImage' } });
    const name = `${createHash('sha256').update(bytes).digest('hex')}.${image.ext}`;
    await this.storage.write(AREA, name, bytes);
    return name;
  }

  /** A stored image and its type, or 'not found'. */
  async read(name: string): Promise<{ mime: string; bytes: Buffer }> {
    const mime = mimeOfExtension(name);
    const bytes = mime && (await this.storage.read(AREA, name));
    if (!mime || !bytes) throw new AppError('notFound');
    return { mime, bytes };
  }
}

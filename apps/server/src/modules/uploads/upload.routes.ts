import { createHash } from 'node:crypto';
import { IMAGE_UPLOAD_MAX_BYTES, imageUploadResponse } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { readOneFile } from '../../lib/read-upload.js';
import type { Storage } from '../../lib/storage.js';
import { detectImage, mimeOfExtension } from './image-type.js';

const AREA = 'images';
export const IMAGE_PATH = '/resource/img';

/**
 * Image upload for logos and backgrounds: one file, checked by content, stored under a name made of
 * its SHA-256 (so the same image is stored once and can be cached forever), served back read-only.
 */
export function uploadRoutes(storage: Storage, urlPrefix: string) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      IMAGE_PATH,
      {
        config: { action: 'image.upload' },
        schema: { tags: ['uploads'], consumes: ['multipart/form-data'], response: { 200: imageUploadResponse } },
      },
      async (request) => {
        const bytes = await readOneFile(request, IMAGE_UPLOAD_MAX_BYTES);
        const image = detectImage(bytes);
        if (!image) throw new AppError('notImage', { fields: { file: 'upload.notImage' } });
        const name = `${createHash('sha256').update(bytes).digest('hex')}.${image.ext}`;
        await storage.write(AREA, name, bytes);
        return { url: `${urlPrefix}${IMAGE_PATH}/${name}` };
      },
    );

    app.get(
      `${IMAGE_PATH}/:name`,
      {
        config: { action: 'public' },
        schema: { tags: ['uploads'], params: z.object({ name: z.string().regex(/^[0-9a-f]{64}\.[a-z]{3,4}$/) }) },
      },
      async (request, reply) => {
        const { name } = request.params;
        const mime = mimeOfExtension(name);
        const bytes = mime && (await storage.read(AREA, name));
        if (!mime || !bytes) throw new AppError('notFound');
        return reply
          .header('content-type', mime)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .send(bytes);
      },
    );
  };
}

import { IMAGE_UPLOAD_MAX_BYTES, imageUploadResponse } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { receiveFile } from '../../lib/upload-receiver.js';
import type { ImageService } from './image.service.js';

export const IMAGE_PATH = '/resource/img';

/** Image upload for logos and backgrounds (one file; `ImageService` checks and stores it), served back read-only. */
export function uploadRoutes(images: ImageService, urlPrefix: string) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.post(
      IMAGE_PATH,
      {
        config: { action: 'image.upload', upload: { fileBytes: IMAGE_UPLOAD_MAX_BYTES } },
        schema: { tags: ['uploads'], consumes: ['multipart/form-data'], response: { 200: imageUploadResponse } },
      },
      async (request) => {
        const name = await images.save(await receiveFile(request));
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
        const { mime, bytes } = await images.read(request.params.name);
        return reply
          .header('content-type', mime)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .send(bytes);
      },
    );
  };
}

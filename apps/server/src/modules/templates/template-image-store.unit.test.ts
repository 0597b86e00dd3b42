import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import { TINY_PNG } from '../../test/test-app.js';
import { checkTemplateImage, imageSize } from './template-image-store.js';

/** A JPEG of SOI, an APP0 segment, then a baseline frame header declaring `width` × `height`. */
function jpeg(width: number, height: number, frame = 0xc0): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.alloc(19);
  sof.set([0xff, frame, 0x00, 0x11, 0x08]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A WebP with a VP8X header (24-bit width − 1 and height − 1). */
function webp(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(40);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(32, 4);
  bytes.write('WEBPVP8X', 8, 'latin1');
  bytes.writeUIntLE(width - 1, 24, 3);
  bytes.writeUIntLE(height - 1, 27, 3);
  return bytes;
}

const code = (run: () => unknown) => {
  try {
    run();
    return 'accepted';
  } catch (error) {
    return error instanceof AppError ? `${error.code}:${error.options.message}` : 'other';
  }
};

describe('template image checks', () => {
  it('reads the declared size of PNG, JPEG and WebP headers', () => {
    expect(imageSize(TINY_PNG, 'png')).toEqual({ width: 1, height: 1 });
    expect(imageSize(jpeg(1280, 720), 'jpg')).toEqual({ width: 1280, height: 720 });
    expect(imageSize(jpeg(800, 600, 0xc2), 'jpg')).toEqual({ width: 800, height: 600 });
    expect(imageSize(webp(1920, 1080), 'webp')).toEqual({ width: 1920, height: 1080 });
    // Cut short before the frame header, or markers that are not markers.
    expect(imageSize(jpeg(10, 10).subarray(0, 24), 'jpg')).toBeUndefined();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]), 'jpg')).toBeUndefined();
  });

  it('accepts fitting pictures, refuses huge or unreadable ones', () => {
    expect(checkTemplateImage(jpeg(1280, 720))).toEqual({ ext: 'jpg', mime: 'image/jpeg' });
    expect(checkTemplateImage(webp(4096, 2304))).toEqual({ ext: 'webp', mime: 'image/webp' });
    expect(code(() => checkTemplateImage(jpeg(4097, 100)))).toBe('notImage:template.imageDimensions');
    expect(code(() => checkTemplateImage(webp(100, 50_000)))).toBe('notImage:template.imageDimensions');
    expect(code(() => checkTemplateImage(jpeg(10, 10).subarray(0, 20)))).toBe('notImage:template.imageDimensions');
    expect(code(() => checkTemplateImage(Buffer.from('GIF89a')))).toBe('notImage:template.imageDimensions');
  });
});

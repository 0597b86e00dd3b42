import { z } from 'zod';
import { MEDIA_LIMITS } from '../media.js';

/**
 * The media library's calls (the console's `proxy/core/mediaLibrary…` and a project site's back
 * office): paths and names as sent (their rules are checked by the server, which names the reason:
 * here only their size), and what the calls answer.
 */

/** A path relative to the library's root (`images/logo.png`; the root is `''`). */
export const mediaPathParam = z.string().max(MEDIA_LIMITS.pathMax * 2);
/** A file or folder name (a rename). */
export const mediaNameParam = z.string().max(MEDIA_LIMITS.nameBytesMax * 2);

/** A folder (with its content) or a file (with its size and last change) of the library's tree. */
export interface MediaTreeNode {
  path: string;
  name: string;
  type: 'dir' | 'file';
  child?: MediaTreeNode[];
  size?: number;
  updateTime?: string;
}

export const mediaTreeNode: z.ZodType<MediaTreeNode> = z
  .lazy(() =>
    z.object({
      path: z.string(),
      name: z.string(),
      type: z.enum(['dir', 'file']),
      child: z.array(mediaTreeNode).optional(),
      size: z.number().optional(),
      updateTime: z.string().optional(),
    }),
  )
  // A recursive schema needs a name in the API document (a $ref to itself).
  .meta({ id: 'MediaTreeNode' });

/** A file or folder's path after the call (a rename, a move, a removal). */
export const mediaPathView = z.object({ path: z.string() });
/** The files an upload stored. */
export const mediaUploadedView = z.array(z.object({ path: z.string(), name: z.string(), size: z.number() }));

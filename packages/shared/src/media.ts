/**
 * The media library's limits and its path rules (issue 11 §2), shared by the server (which enforces
 * them) and the console (which checks a name before sending it). Pure: no I/O, no zod.
 *
 * A media path names a file or folder relative to the library's root: segments joined by `/`, no
 * leading `/` (the root itself is the empty path). Every segment must be a name that is safe on every
 * file system an archive of the library may be opened on (Linux, macOS, Windows) and in object stores.
 */
export const MEDIA_LIMITS = {
  /** The largest file one upload may bring (2 GiB). */
  fileBytes: 2 * 1024 * 1024 * 1024,
  /** Files per upload request. */
  filesPerUpload: 100,
  /** A whole path, in characters. */
  pathMax: 1024,
  /** One name, in UTF-8 bytes (the usual file-system limit). */
  nameBytesMax: 255,
  /** Folders deep. */
  depthMax: 32,
  /** Nodes one tree answer holds; a larger library is cut there (header `x-tree-truncated`). */
  treeNodesMax: 20_000,
  /** Entries walked to add up a project's file size; past it the size is a lower bound. */
  sizeEntriesMax: 1_000_000,
} as const;

/** The root folder of a project's library that shows the platform's public folder (never a project's own). */
export const MEDIA_PUBLIC_ROOT = 'public';
/** Names the server gives its own temporary files (uploads being written); never a user's name. */
export const MEDIA_TEMP_PREFIX = '.gantry-upload-';

/** Why a path was refused; each has a message `media.reason.<problem>`. */
export type MediaPathProblem =
  | 'empty'
  | 'tooLong'
  | 'tooDeep'
  | 'absolute'
  | 'backslash'
  | 'emptySegment'
  | 'dotSegment'
  | 'control'
  | 'forbiddenCharacter'
  | 'trailingDotOrSpace'
  | 'reservedName'
  | 'nameTooLong';

export type MediaPathCheck = { ok: true; segments: string[] } | { ok: false; problem: MediaPathProblem };

/** Windows device names, alone or before an extension (`CON`, `nul.txt`, `COM1`, `LPT¹`), any case. */
const DEVICE_NAME = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
// C0 and C1 control characters and DEL; a name with one cannot be shown, typed or archived safely.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Characters Windows refuses in names (the backslash and slash are checked on their own). */
const FORBIDDEN = /[<>:"|?*]/;

const utf8 = new TextEncoder();

/** Checks one name (a file or folder name, no `/`). */
export function checkMediaName(name: string): MediaPathProblem | undefined {
  if (name === '') return 'emptySegment';
  if (name === '.' || name === '..') return 'dotSegment';
  if (name.includes('\\')) return 'backslash';
  if (name.includes('/')) return 'absolute';
  if (CONTROL.test(name)) return 'control';
  if (FORBIDDEN.test(name)) return 'forbiddenCharacter';
  if (/[. ]$/.test(name)) return 'trailingDotOrSpace';
  if (DEVICE_NAME.test(name) || name.startsWith(MEDIA_TEMP_PREFIX)) return 'reservedName';
  if (utf8.encode(name).length > MEDIA_LIMITS.nameBytesMax) return 'nameTooLong';
  return undefined;
}

/**
 * Checks a media path and answers its segments. `allowRoot`: the empty path (the library's root) is
 * allowed, as where a listing or an upload goes.
 */
export function checkMediaPath(path: string, allowRoot = false): MediaPathCheck {
  if (path === '') return allowRoot ? { ok: true, segments: [] } : { ok: false, problem: 'empty' };
  if (path.length > MEDIA_LIMITS.pathMax) return { ok: false, problem: 'tooLong' };
  if (path.startsWith('/') || /^[a-z]:/i.test(path)) return { ok: false, problem: 'absolute' };
  if (path.includes('\\')) return { ok: false, problem: 'backslash' };
  const segments = path.split('/');
  if (segments.length > MEDIA_LIMITS.depthMax) return { ok: false, problem: 'tooDeep' };
  for (const segment of segments) {
    const problem = checkMediaName(segment);
    if (problem) return { ok: false, problem };
  }
  return { ok: true, segments };
}

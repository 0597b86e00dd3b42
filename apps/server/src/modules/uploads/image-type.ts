/** Image formats accepted for logos and backgrounds, recognised by their first bytes, not the name. */
const SIGNATURES: Array<{ ext: string; mime: string; matches: (b: Uint8Array) => boolean }> = [
  { ext: 'png', mime: 'image/png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { ext: 'jpg', mime: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { ext: 'gif', mime: 'image/gif', matches: (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a') },
  { ext: 'webp', mime: 'image/webp', matches: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP') },
  { ext: 'bmp', mime: 'image/bmp', matches: (b) => ascii(b, 0, 'BM') && b.length > 26 },
  { ext: 'ico', mime: 'image/x-icon', matches: (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00]) && b.length > 22 },
];

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((value, i) => bytes[i] === value);
}

function ascii(bytes: Uint8Array, offset: number, text: string): boolean {
  if (bytes.length < offset + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** The image type of the content, or undefined when it is not one we accept (SVG is refused: it can carry script). */
export function detectImage(bytes: Uint8Array): { ext: string; mime: string } | undefined {
  const found = SIGNATURES.find((s) => s.matches(bytes));
  return found && { ext: found.ext, mime: found.mime };
}

export function mimeOfExtension(name: string): string | undefined {
  const ext = name.split('.').pop();
  return SIGNATURES.find((s) => s.ext === ext)?.mime;
}

/**
 * Readable text on a chosen background (WCAG 2.x): the relative luminance of an sRGB colour, the
 * contrast ratio of two, and the text colour (black or white) that contrasts more with a background.
 * One of the two always reaches at least 4.58:1, above AA's 4.5:1 for normal text.
 */

export type Rgb = readonly [number, number, number];

export const BLACK = '#000000';
export const WHITE = '#ffffff';
/** WCAG AA for normal text. */
export const AA_NORMAL = 4.5;

/** `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` as 0–255 channels (alpha ignored), or null. */
export function parseHex(color: string): Rgb | null {
  const hex = color.trim().replace(/^#/, '');
  if (!/^[0-9a-f]+$/i.test(hex)) return null;
  const full =
    hex.length === 3 || hex.length === 4
      ? [...hex.slice(0, 3)].map((c) => c + c).join('')
      : hex.length === 6 || hex.length === 8
        ? hex.slice(0, 6)
        : null;
  if (!full) return null;
  const channel = (i: number) => Number.parseInt(full.slice(i, i + 2), 16);
  return [channel(0), channel(2), channel(4)];
}

const linear = (channel: number) => {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** Relative luminance, 0 (black) to 1 (white). */
export function luminance([r, g, b]: Rgb): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** Contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** Black or white, whichever contrasts more with `background`. */
export function readableOn(background: Rgb): typeof BLACK | typeof WHITE {
  return contrastRatio(background, [0, 0, 0]) >= contrastRatio(background, [255, 255, 255]) ? BLACK : WHITE;
}

/** The grey a colour turns into (the luma CSS `grayscale(1)` uses), for a greyed-out look. */
export function greyOf([r, g, b]: Rgb): Rgb {
  const y = Math.round(0.2126 * r + 0.7152 * g + 0.0722 * b);
  return [y, y, y];
}

export function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

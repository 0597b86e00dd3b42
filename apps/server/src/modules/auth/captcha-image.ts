import { randomInt } from 'node:crypto';

/**
 * Verification-code images of our own (replacing svg-captcha, unmaintained since 2019): each
 * character is drawn as strokes, never as SVG text (which any bot reads from the source), moved,
 * turned, stretched and shaken at random, over noise curves. The answer is chosen with
 * crypto.randomInt; the drawing's jitter needs no secrecy.
 */

type Point = readonly [number, number];
type Stroke = readonly Point[];

/**
 * The characters, on a 10 × 14 grid (y downwards). Left out: look-alikes (0/O/Q/D… kept only D,
 * 1/I, 2/Z, 5/S, 6/G, 8/B), so that a code is never ambiguous to a person.
 */
const GLYPHS: Readonly<Record<string, readonly Stroke[]>> = {
  A: [
    [
      [0, 14],
      [5, 0],
      [10, 14],
    ],
    [
      [2, 9],
      [8, 9],
    ],
  ],
  C: [
    [
      [10, 2],
      [7, 0],
      [3, 0],
      [0, 3],
      [0, 11],
      [3, 14],
      [7, 14],
      [10, 12],
    ],
  ],
  D: [
    [
      [0, 0],
      [0, 14],
      [6, 14],
      [10, 10],
      [10, 4],
      [6, 0],
      [0, 0],
    ],
  ],
  E: [
    [
      [10, 0],
      [0, 0],
      [0, 14],
      [10, 14],
    ],
    [
      [0, 7],
      [7, 7],
    ],
  ],
  F: [
    [
      [10, 0],
      [0, 0],
      [0, 14],
    ],
    [
      [0, 7],
      [7, 7],
    ],
  ],
  H: [
    [
      [0, 0],
      [0, 14],
    ],
    [
      [10, 0],
      [10, 14],
    ],
    [
      [0, 7],
      [10, 7],
    ],
  ],
  J: [
    [
      [3, 0],
      [10, 0],
    ],
    [
      [7, 0],
      [7, 11],
      [5, 14],
      [2, 14],
      [0, 11],
    ],
  ],
  K: [
    [
      [0, 0],
      [0, 14],
    ],
    [
      [10, 0],
      [0, 8],
    ],
    [
      [3, 6],
      [10, 14],
    ],
  ],
  L: [
    [
      [0, 0],
      [0, 14],
      [10, 14],
    ],
  ],
  M: [
    [
      [0, 14],
      [0, 0],
      [5, 8],
      [10, 0],
      [10, 14],
    ],
  ],
  N: [
    [
      [0, 14],
      [0, 0],
      [10, 14],
      [10, 0],
    ],
  ],
  P: [
    [
      [0, 14],
      [0, 0],
      [7, 0],
      [10, 2],
      [10, 5],
      [7, 7],
      [0, 7],
    ],
  ],
  R: [
    [
      [0, 14],
      [0, 0],
      [7, 0],
      [10, 2],
      [10, 5],
      [7, 7],
      [0, 7],
    ],
    [
      [5, 7],
      [10, 14],
    ],
  ],
  T: [
    [
      [0, 0],
      [10, 0],
    ],
    [
      [5, 0],
      [5, 14],
    ],
  ],
  U: [
    [
      [0, 0],
      [0, 11],
      [3, 14],
      [7, 14],
      [10, 11],
      [10, 0],
    ],
  ],
  V: [
    [
      [0, 0],
      [5, 14],
      [10, 0],
    ],
  ],
  W: [
    [
      [0, 0],
      [2, 14],
      [5, 5],
      [8, 14],
      [10, 0],
    ],
  ],
  X: [
    [
      [0, 0],
      [10, 14],
    ],
    [
      [10, 0],
      [0, 14],
    ],
  ],
  Y: [
    [
      [0, 0],
      [5, 7],
      [10, 0],
    ],
    [
      [5, 7],
      [5, 14],
    ],
  ],
  '3': [
    [
      [0, 1],
      [3, 0],
      [7, 0],
      [10, 3],
      [7, 7],
      [3, 7],
    ],
    [
      [7, 7],
      [10, 10],
      [7, 14],
      [3, 14],
      [0, 13],
    ],
  ],
  '4': [
    [
      [7, 14],
      [7, 0],
      [0, 10],
      [10, 10],
    ],
  ],
  '7': [
    [
      [0, 0],
      [10, 0],
      [4, 14],
    ],
  ],
};

export const CAPTCHA_ALPHABET = Object.keys(GLYPHS).join('');
export const CAPTCHA_LENGTH = 4;
const WIDTH = 120;
const HEIGHT = 40;

const between = (low: number, high: number) => low + Math.random() * (high - low);
const round = (n: number) => Math.round(n * 10) / 10;
const colour = () =>
  `hsl(${Math.floor(between(0, 360))},${Math.floor(between(45, 75))}%,${Math.floor(between(22, 40))}%)`;

/** One character's strokes as path data, placed in its cell with a random turn, stretch and shake. */
function glyphPath(strokes: readonly Stroke[], cellX: number): string {
  const sx = between(1.4, 1.75);
  const sy = between(1.55, 1.8);
  const angle = (between(-18, 18) * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const cx = cellX + between(11, 15);
  const cy = HEIGHT / 2 + between(-2.5, 2.5);
  const place = ([x, y]: Point): string => {
    const dx = (x + between(-0.5, 0.5) - 5) * sx;
    const dy = (y + between(-0.5, 0.5) - 7) * sy;
    return `${round(cx + dx * cos - dy * sin)} ${round(cy + dx * sin + dy * cos)}`;
  };
  return strokes.map((stroke) => `M${stroke.map(place).join('L')}`).join('');
}

/** A curve across the image, in the characters' colours, to get in the way of segmentation. */
function noisePath(): string {
  const y = () => round(between(4, HEIGHT - 4));
  const x = (from: number, to: number) => round(between(from, to));
  return `M${x(0, 10)} ${y()}C${x(25, 50)} ${y()} ${x(70, 95)} ${y()} ${x(WIDTH - 10, WIDTH)} ${y()}`;
}

/** A fresh code: its answer (upper case) and its image (an SVG document of paths only). */
export function captchaImage(background = '#f0f2f5'): { text: string; svg: string } {
  let text = '';
  for (let i = 0; i < CAPTCHA_LENGTH; i++) text += CAPTCHA_ALPHABET[randomInt(CAPTCHA_ALPHABET.length)];
  const cell = (WIDTH - 8) / CAPTCHA_LENGTH;
  const glyphs = [...text].map(
    (char, i) =>
      `<path d="${glyphPath(GLYPHS[char] ?? [], 4 + i * cell)}" stroke="${colour()}" stroke-width="${round(between(2, 2.8))}" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`,
  );
  const noise = Array.from(
    { length: 3 },
    () => `<path d="${noisePath()}" stroke="${colour()}" stroke-width="${round(between(1, 1.6))}" fill="none"/>`,
  );
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">` +
    `<rect width="100%" height="100%" fill="${background}"/>${noise.join('')}${glyphs.join('')}</svg>`;
  return { text, svg };
}

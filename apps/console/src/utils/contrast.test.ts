import { describe, expect, it } from 'vitest';
import { AA_NORMAL, BLACK, contrastRatio, greyOf, luminance, parseHex, readableOn, toHex, WHITE } from './contrast';

describe('contrast', () => {
  it('parses the hex forms the project form accepts', () => {
    expect(parseHex('#1677FF')).toEqual([0x16, 0x77, 0xff]);
    expect(parseHex('#fff')).toEqual([255, 255, 255]);
    expect(parseHex('#0f08')).toEqual([0, 255, 0]);
    expect(parseHex('#11223344')).toEqual([0x11, 0x22, 0x33]);
    expect(parseHex('#12345')).toBeNull();
    expect(parseHex('blue')).toBeNull();
  });

  it('computes WCAG luminance and ratios', () => {
    expect(luminance([0, 0, 0])).toBe(0);
    expect(luminance([255, 255, 255])).toBeCloseTo(1);
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21);
    // antd's primary blue against white: 4.1 (below AA), against black: 5.1
    expect(contrastRatio([0x16, 0x77, 0xff], [255, 255, 255])).toBeCloseTo(4.1, 1);
  });

  it('puts white on #1677FF, black on yellow, white on dark red', () => {
    expect(readableOn([0x16, 0x77, 0xff])).toBe(BLACK);
    expect(readableOn([0xff, 0xeb, 0x3b])).toBe(BLACK);
    expect(readableOn([0x8b, 0, 0])).toBe(WHITE);
    expect(readableOn([0x00, 0x3a, 0x8c])).toBe(WHITE);
  });

  it('reaches AA for every colour (a 4096-colour sweep)', () => {
    let worst = 21;
    for (let r = 0; r < 256; r += 17) {
      for (let g = 0; g < 256; g += 17) {
        for (let b = 0; b < 256; b += 17) {
          const background = [r, g, b] as const;
          const text = parseHex(readableOn(background));
          if (!text) throw new Error('no text colour');
          worst = Math.min(worst, contrastRatio(background, text));
        }
      }
    }
    expect(worst).toBeGreaterThanOrEqual(AA_NORMAL);
  });

  it('greys a colour out by its luma', () => {
    expect(toHex(greyOf([0x16, 0x77, 0xff]))).toBe('#6c6c6c');
    expect(greyOf([255, 255, 255])).toEqual([255, 255, 255]);
  });
});

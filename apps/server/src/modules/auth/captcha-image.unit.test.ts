import { describe, expect, it } from 'vitest';
import { CAPTCHA_ALPHABET, CAPTCHA_LENGTH, captchaImage } from './captcha-image.js';

describe('verification-code images', () => {
  it('draws a random code from the unambiguous alphabet, as paths only, never as text', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { text, svg } = captchaImage();
      expect(text).toMatch(new RegExp(`^[${CAPTCHA_ALPHABET}]{${CAPTCHA_LENGTH}}$`));
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="120" height="40" /);
      expect(svg).not.toMatch(/<text|<script|<foreignObject|href=|on\w+=/i);
      // One path per character, three noise curves; coordinates only, the answer nowhere in the source.
      expect(svg.match(/<path /g)).toHaveLength(CAPTCHA_LENGTH + 3);
      expect(svg.replace(/"[^"]*"/g, '""')).not.toContain(text);
      seen.add(text);
    }
    // Random codes: 200 draws of 22^4 codes are (almost surely) all different.
    expect(seen.size).toBeGreaterThan(195);
    expect(CAPTCHA_ALPHABET).not.toMatch(/[0O1IS5Z2G6B8Q]/);
  });

  it('uses every character of the alphabet', () => {
    const used = new Set<string>();
    for (let i = 0; i < 400; i++) for (const char of captchaImage().text) used.add(char);
    expect([...used].sort().join('')).toBe([...CAPTCHA_ALPHABET].sort().join(''));
  });
});

import { greyOf, parseHex, readableOn, toHex } from '../../utils/contrast';

/** A disabled card without a colour of its own: antd's disabled background. */
const DISABLED_BACKGROUND = '#f0f0f0';

export interface CardColours {
  /** The card's background, or undefined for antd's default (white). */
  background?: string;
  /** The text and link colour on it (black or white by contrast), or undefined for antd's defaults. */
  text?: string;
}

/**
 * The colours of a project card: its background colour, greyed out while the project is disabled,
 * and the text that contrasts more with it (WCAG relative luminance, at least 4.5:1).
 */
export function cardColours(bgColor: string | null | undefined, enabled: boolean): CardColours {
  const rgb = bgColor ? parseHex(bgColor) : null;
  if (!rgb) return enabled ? {} : { background: DISABLED_BACKGROUND, text: '#000000' };
  const background = enabled ? rgb : greyOf(rgb);
  return { background: toHex(background), text: readableOn(background) };
}

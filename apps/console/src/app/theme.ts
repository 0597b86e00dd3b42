import type { ThemeConfig } from 'antd';

/**
 * The console's colours, at WCAG AA contrast (4.5:1 for normal text; issue 32, axe in
 * e2e/a11y.spec.ts). antd's primary blue #1677ff carries white text at 4.1:1 and its grey secondary
 * texts sit near 3:1: one shade darker of the same blue (antd's blue-7), and greys at 60 % black, pass.
 */
export const PRIMARY_COLOUR = '#0958d9';
const PRIMARY_HOVER_COLOUR = '#003eb3';
export const SECONDARY_TEXT_COLOUR = 'rgba(0, 0, 0, 0.6)';
/** antd's green-8: 5.4:1 on white and on green-1 (antd's green-6 #52c41a is 2.2:1 on white). */
export const SUCCESS_COLOUR = '#237804';

/**
 * A coloured Tag writes its text in the 7th shade of its palette on the 1st, under 4.5:1 for most
 * palettes (green 3.4:1, orange 3.3:1, gold 2.8:1): the first shade of each that reaches 4.5:1 on its
 * 1st shade instead (measured with the WCAG formula on @ant-design/colors' palettes). Status tags
 * (success, warning, error, processing) take the same shades of green, gold, red and blue.
 */
const TAG_TEXT = {
  red7: '#cf1322',
  volcano7: '#ad2102',
  orange7: '#ad4e00',
  gold7: '#874d00',
  yellow7: '#876800',
  lime7: '#3f6600',
  green7: SUCCESS_COLOUR,
  cyan7: '#006d75',
  colorSuccess: SUCCESS_COLOUR,
  colorWarning: '#874d00',
  colorError: '#cf1322',
  colorInfo: PRIMARY_COLOUR,
};

export const THEME: ThemeConfig = {
  token: {
    colorPrimary: PRIMARY_COLOUR,
    colorLink: PRIMARY_COLOUR,
    // antd's red-7: 5.6:1 on white for danger links and field errors (its red #ff4d4f is 3.4:1).
    colorError: '#cf1322',
    // Hovered links and primary buttons go darker (blue-8), not lighter: antd's lighter shades of
    // #0958d9 are 2.8:1 (link text) and 3.6:1 (white on a button) on white.
    colorLinkHover: PRIMARY_HOVER_COLOUR,
    colorPrimaryHover: PRIMARY_HOVER_COLOUR,
    colorTextTertiary: SECONDARY_TEXT_COLOUR,
    colorTextDescription: SECONDARY_TEXT_COLOUR,
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
  },
  components: {
    Tag: TAG_TEXT,
    // A table's empty text (a string, not antd's Empty) is in the disabled grey, 1.8:1 on white.
    Table: { colorTextDisabled: SECONDARY_TEXT_COLOUR },
  },
};

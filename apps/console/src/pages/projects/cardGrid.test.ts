import { describe, expect, it } from 'vitest';
import { cardColours } from './cardColours';
import { cardColumns, pastThreshold } from './cardGrid';

describe('card grid', () => {
  it('has 1, 2, 3, 4, 6 columns from the smallest to the largest screens', () => {
    const at = (...on: string[]) => cardColumns(Object.fromEntries(on.map((size) => [size, true])));
    expect(at('xs')).toBe(1); // 390 px
    expect(at('xs', 'sm')).toBe(2);
    expect(at('xs', 'sm', 'md')).toBe(2);
    expect(at('xs', 'sm', 'md', 'lg')).toBe(3); // 1,000 px
    expect(at('xs', 'sm', 'md', 'lg', 'xl')).toBe(4); // 1,440 px
    expect(at('xs', 'sm', 'md', 'lg', 'xl', 'xxl')).toBe(6); // 1,600 px
    expect(at('xs', 'sm', 'md', 'lg', 'xl', 'xxl', 'xxxl')).toBe(6);
    expect(cardColumns({})).toBe(1);
  });

  it('loads more once 80 % of the page is scrolled', () => {
    expect(pastThreshold(0, 800, 2000)).toBe(false);
    expect(pastThreshold(799, 800, 2000)).toBe(false);
    expect(pastThreshold(800, 800, 2000)).toBe(true);
    expect(pastThreshold(0, 800, 0)).toBe(false);
  });
});

describe('card colours', () => {
  it('keeps antd defaults without a colour, greys a disabled one', () => {
    expect(cardColours(null, true)).toEqual({});
    expect(cardColours('not a colour', true)).toEqual({});
    expect(cardColours(null, false)).toEqual({ background: '#f0f0f0', text: '#000000' });
  });

  it('reads black on #1677FF (5.1:1, white gives 4.1:1), white on its grey when disabled', () => {
    expect(cardColours('#1677FF', true)).toEqual({ background: '#1677ff', text: '#000000' });
    expect(cardColours('#1677FF', false)).toEqual({ background: '#6c6c6c', text: '#ffffff' });
  });
});

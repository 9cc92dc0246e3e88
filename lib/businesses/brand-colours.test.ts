import { describe, expect, it } from 'vitest';
import { contrastRatio, isHexColour, readableTextOn, relativeLuminance } from './brand-colours';

describe('brand colours', () => {
  it('accepts #rrggbb only', () => {
    expect(isHexColour('#1d4ED8')).toBe(true);
    for (const bad of ['1d4ed8', '#1d4ed', '#1d4ed88', '#gggggg', 'blue', '']) expect(isHexColour(bad)).toBe(false);
  });

  it('measures luminance and contrast as WCAG does', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 10);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
  });

  it('picks white text on dark brand colours and dark text on light ones', () => {
    expect(readableTextOn('#1d4ed8')).toBe('#ffffff');
    expect(readableTextOn('#111827')).toBe('#ffffff');
    expect(readableTextOn('#fde047')).toBe('#111827');
    expect(readableTextOn('#ffffff')).toBe('#111827');
  });
});

import { describe, expect, it } from 'vitest';
import { brandPalette, contrastRatio, DARK_TEXT, isHexColour, LIGHT_TEXT, readableTextOn, relativeLuminance } from '@/lib/businesses/brand-palette';

describe('relativeLuminance', () => {
  it('is 0 for black and 1 for white, in either case of hex digit', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#FFFFFF')).toBe(1);
    expect(relativeLuminance('#ffffff')).toBe(1);
  });

  it('refuses anything but #rrggbb', () => {
    expect(() => relativeLuminance('#fff')).toThrow(/#rrggbb/);
    expect(() => relativeLuminance('red')).toThrow(/#rrggbb/);
  });
});

describe('contrastRatio', () => {
  it('matches the WCAG figures', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#ffffff', '#000000')).toBe(21);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});

describe('readableTextOn', () => {
  it.each([
    ['#1d4ed8', LIGHT_TEXT], // default blue
    ['#0f766e', LIGHT_TEXT], // teal
    ['#000000', LIGHT_TEXT],
    ['#f59e0b', DARK_TEXT], // amber
    ['#fde047', DARK_TEXT], // pale yellow
    ['#ffffff', DARK_TEXT],
  ])('puts readable text on %s', (background, text) => {
    expect(readableTextOn(background)).toBe(text);
  });

  it('reaches 4.5:1 (WCAG AA) on every grey and on saturated mid-tones', () => {
    const greys = Array.from({ length: 256 }, (_, v) => `#${v.toString(16).padStart(2, '0').repeat(3)}`);
    for (const background of [...greys, '#e11d48', '#16a34a', '#7c3aed', '#0ea5e9', '#ff0000', '#00ff00']) {
      expect(contrastRatio(background, readableTextOn(background))).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('brandPalette', () => {
  it('gives each brand colour its text colour', () => {
    expect(brandPalette({ primaryColor: '#0f766e', accentColor: '#fde047' })).toEqual({
      '--brand': '#0f766e',
      '--brand-ink': LIGHT_TEXT,
      '--brand-on-white': '#0f766e',
      '--accent': '#fde047',
      '--accent-ink': DARK_TEXT,
    });
  });

  it('uses dark instead of a brand colour too pale to show against white', () => {
    expect(brandPalette({ primaryColor: '#fde047', accentColor: '#f59e0b' })['--brand-on-white']).toBe(DARK_TEXT);
  });

  it('falls back to the defaults for a colour that is not #rrggbb', () => {
    const palette = brandPalette({ primaryColor: 'red; background: url(x)', accentColor: '#abc' });
    expect(palette['--brand']).toBe('#1d4ed8');
    expect(palette['--accent']).toBe('#f59e0b');
  });
});

describe('isHexColour', () => {
  it('accepts #rrggbb only', () => {
    expect(['#0b5fff', '#FFB000'].every(isHexColour)).toBe(true);
    expect(['0b5fff', '#fff', '#0b5fffa', 'blue', ''].some(isHexColour)).toBe(false);
  });
});

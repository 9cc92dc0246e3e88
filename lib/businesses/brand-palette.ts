/**
 * Text colours we put on a brand colour: whichever reads better against it. With pure black and
 * white the better one always reaches 4.5:1 (WCAG AA); a softer dark would fall to about 4.1.
 */
export const LIGHT_TEXT = '#ffffff';
export const DARK_TEXT = '#000000';

const HEX_COLOR = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;

export const isHexColour = (value: string) => HEX_COLOR.test(value);

/** WCAG 2 relative luminance of a #rrggbb colour (0 = black, 1 = white). */
export function relativeLuminance(hex: string): number {
  const match = HEX_COLOR.exec(hex);
  if (!match) throw new Error(`Not a #rrggbb colour: ${hex}`);
  const [r, g, b] = match.slice(1).map((part) => {
    const channel = parseInt(part, 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio between two #rrggbb colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (lighter + 0.05) / (darker + 0.05);
}

/** White or dark text, whichever contrasts more with `background`. */
export function readableTextOn(background: string): typeof LIGHT_TEXT | typeof DARK_TEXT {
  return contrastRatio(background, LIGHT_TEXT) >= contrastRatio(background, DARK_TEXT) ? LIGHT_TEXT : DARK_TEXT;
}

/**
 * CSS custom properties for a business's colours and the text that goes on them, plus
 * `--brand-on-white`: the brand colour where it shows against white (3:1, enough for focus rings
 * and borders), dark otherwise. A colour that is not #rrggbb (rows can be written outside the
 * branding route) falls back to the default.
 */
export function brandPalette(
  branding: { primaryColor: string; accentColor: string },
  defaults = { primaryColor: '#1d4ed8', accentColor: '#f59e0b' },
): Record<'--brand' | '--brand-ink' | '--brand-on-white' | '--accent' | '--accent-ink', string> {
  const brand = HEX_COLOR.test(branding.primaryColor) ? branding.primaryColor : defaults.primaryColor;
  const accent = HEX_COLOR.test(branding.accentColor) ? branding.accentColor : defaults.accentColor;
  return {
    '--brand': brand,
    '--brand-ink': readableTextOn(brand),
    '--brand-on-white': contrastRatio(brand, LIGHT_TEXT) >= 3 ? brand : DARK_TEXT,
    '--accent': accent,
    '--accent-ink': readableTextOn(accent),
  };
}

/**
 * Text as PostgreSQL will store it, whatever a stranger sent. A `text` column refuses NUL and
 * every byte sequence that is not UTF-8; one such value in a multi-row statement fails every
 * row of it. So what is not storable is written as its escape, visibly, never dropped:
 * NUL as `\u0000`, a lone surrogate as `\uD800`, a byte that is not part of valid UTF-8 as `\xC0`.
 */

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const MAYBE_UNSTORABLE = /[\u0000\uD800-\uDFFF]/;

/** The text with NUL and lone surrogates written as `\uXXXX`; other text as it is. */
export function storableText(text: string): string {
  if (!MAYBE_UNSTORABLE.test(text)) return text;
  return text.replace(UNSTORABLE, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** `storableText` of a value that may be null. */
export function storableOrNull(text: string | null): string | null {
  return text === null ? null : storableText(text);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * UTF-8 bytes as text, each byte that is not part of a valid sequence written as `\xNN`
 * (where a lenient decoder would put U+FFFD and lose what was sent).
 */
export function textOfUtf8(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let out = '';
    let start = 0;
    let i = 0;
    while (i < bytes.length) {
      const length = validSequenceLength(bytes, i);
      if (length > 0) {
        i += length;
        continue;
      }
      out += strictUtf8.decode(bytes.subarray(start, i)) + `\\x${bytes[i].toString(16).toUpperCase().padStart(2, '0')}`;
      start = ++i;
    }
    return out + strictUtf8.decode(bytes.subarray(start));
  }
}

/** The length of the well-formed UTF-8 sequence at `i` (Unicode table 3-7), or 0. */
function validSequenceLength(b: Uint8Array, i: number): number {
  const b0 = b[i];
  if (b0 <= 0x7f) return 1;
  const cont = (k: number, low = 0x80, high = 0xbf) => i + k < b.length && b[i + k] >= low && b[i + k] <= high;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [low, high] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, low, high) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [low, high] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, low, high) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

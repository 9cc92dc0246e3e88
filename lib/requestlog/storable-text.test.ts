import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storableText, textOfUtf8 } from './storable-text';

/** What PostgreSQL's text type refuses: NUL, and anything whose UTF-8 is not well-formed. */
function postgresRefuses(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed();
}

describe('storableText', () => {
  it('writes NUL and lone surrogates as their escapes and leaves other text alone', () => {
    expect(storableText('x\u0000y')).toBe('x\\u0000y');
    expect(storableText('a\uD800b')).toBe('a\\uD800b');
    expect(storableText('\uDC00\uD800')).toBe('\\uDC00\\uD800');
    expect(storableText('pair 😀 kept')).toBe('pair 😀 kept');
    expect(storableText('café ∑ \uFFFD')).toBe('café ∑ \uFFFD');
  });

  it('never leaves anything PostgreSQL would refuse, and keeps storable text as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constant('\u0000'), fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), fc.string({ unit: 'binary', maxLength: 1 })) }), (text) => {
        const stored = storableText(text);
        expect(postgresRefuses(stored)).toBe(false);
        if (!postgresRefuses(text)) expect(stored).toBe(text);
      }),
    );
  });
});

describe('textOfUtf8', () => {
  it('decodes valid UTF-8 as it is', () => {
    expect(textOfUtf8(Buffer.from('café 😀 ∑', 'utf8'))).toBe('café 😀 ∑');
  });

  it('writes each byte outside a valid sequence as \\xNN and decodes the rest', () => {
    expect(textOfUtf8(Buffer.from([0x61, 0xc0, 0x62]))).toBe('a\\xC0b');
    expect(textOfUtf8(Buffer.from([0xff, 0xfe]))).toBe('\\xFF\\xFE');
    // An encoded surrogate (CESU), an overlong slash, a truncated 3-byte sequence at the end.
    expect(textOfUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe('\\xED\\xA0\\x80');
    expect(textOfUtf8(Buffer.from([0xc0, 0xaf]))).toBe('\\xC0\\xAF');
    expect(textOfUtf8(Buffer.from([0x7b, 0xe2, 0x82]))).toBe('{\\xE2\\x82');
    expect(textOfUtf8(Buffer.from([0xe2, 0x82, 0xac, 0xf4, 0x90, 0x80, 0x80]))).toBe('€\\xF4\\x90\\x80\\x80');
  });

  it('agrees with a strict decoder on every valid sequence and loses no byte of an invalid one', () => {
    fc.assert(
      // No backslash among the bytes, so that every `\xNN` in the text is an escape.
      fc.property(fc.uint8Array({ maxLength: 40 }).filter((bytes) => !bytes.includes(0x5c)), (bytes) => {
        const text = textOfUtf8(bytes);
        const escapes = [...text.matchAll(/\\x[0-9A-F]{2}/g)].length;
        const rest = text.replace(/\\x[0-9A-F]{2}/g, '');
        expect(escapes + Buffer.byteLength(rest, 'utf8')).toBe(bytes.length);
        expect(text.includes('\uFFFD')).toBe(Buffer.from(bytes).includes(Buffer.from('\uFFFD')));
      }),
    );
  });
});

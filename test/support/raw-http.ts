export type RawAnswer = { status: number; headers: Record<string, string>; body: string };

/**
 * The first whole HTTP/1.1 answer in the bytes a raw socket received (framed by its
 * Content-Length; none reads as an empty body), and the bytes after it; null while it is not
 * all there yet. Header names lower-cased; the body as UTF-8 text.
 */
export function takeAnswer(bytes: Buffer): { answer: RawAnswer; rest: Buffer } | null {
  const split = bytes.indexOf('\r\n\r\n');
  if (split < 0) return null;
  const [statusLine, ...lines] = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const end = split + 4 + Number(headers['content-length'] ?? 0);
  if (bytes.length < end) return null;
  return { answer: { status: Number(statusLine.split(' ')[1]), headers, body: bytes.subarray(split + 4, end).toString('utf8') }, rest: bytes.subarray(end) };
}

'use client';

import { useEffect, useState } from 'react';

/**
 * An instant in the customer's own time zone and words. The server (rendering a quote's link)
 * knows neither: it renders the instant in UTC, in English, and the browser rewrites it once
 * mounted, so the two renders agree and the customer reads their own calendar.
 */
export function LocalTime({ iso, style }: { iso: string; style: Intl.DateTimeFormatOptions }) {
  const [text, setText] = useState(() => new Date(iso).toLocaleString('en-US', { ...style, timeZone: 'UTC' }));
  useEffect(() => setText(new Date(iso).toLocaleString(undefined, style)), [iso, style.dateStyle, style.timeStyle]);
  return <time dateTime={iso}>{text}</time>;
}

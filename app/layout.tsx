import type { ReactNode } from 'react';

export const metadata = { title: 'Quote Pricing Service' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', margin: 0, color: '#1f2933' }}>{children}</body>
    </html>
  );
}

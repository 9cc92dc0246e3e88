import type { ReactNode } from 'react';
import './globals.css';

export const metadata = {
  title: 'Quote Pricing Service',
  description: 'Versioned price books, quotes priced the same way every time, and signed receipts that show how each price was made.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

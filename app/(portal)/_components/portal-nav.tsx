'use client';

import Link from 'next/link';
import { signOut } from 'next-auth/react';
import { usePathname } from 'next/navigation';

const LINKS = [
  ['/portal', 'Overview'],
  ['/portal/members', 'Members'],
  ['/portal/branding', 'Branding'],
  ['/portal/api-keys', 'API keys'],
  ['/portal/webhooks', 'Webhooks'],
  ['/portal/books', 'Price books'],
  ['/portal/request-logs', 'Request log'],
  ['/portal/traces', 'Quote traces'],
] as const;

export function PortalNav({ email }: { email: string }) {
  const pathname = usePathname();
  const current = (href: string) => (href === '/portal' ? pathname === href : pathname.startsWith(href));
  return (
    <nav className="nav" aria-label="Portal">
      <div className="brand">Quote Pricing</div>
      {LINKS.map(([href, label]) => (
        <Link key={href} href={href} aria-current={current(href) ? 'page' : undefined}>
          {label}
        </Link>
      ))}
      <div className="who">
        <div>{email}</div>
        <button type="button" onClick={() => void signOut({ callbackUrl: '/signin' })} style={{ marginTop: '0.5rem' }}>
          Sign out
        </button>
      </div>
    </nav>
  );
}

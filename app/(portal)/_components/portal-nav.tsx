'use client';

import { IntentLink } from '../../_components/intent-link';
import { usePathname } from 'next/navigation';
import { useEffect, useState } from 'react';
import { PAGES, usePageAccess, type PortalPage } from './portal-access';
import { useInbox } from './queries';
import { pipelineCountText } from '@/lib/overview/pipeline-count';

export function PortalNav({ email }: { email: string }) {
  const pathname = usePathname();
  const current = (href: string) => (href === '/portal' ? pathname === href : pathname.startsWith(href));
  // Until the person's rights are known only Overview shows; then the pages they can use.
  const access = usePageAccess();
  const links = PAGES.filter((p) => (access ? access[p.page] !== null : p.page === 'overview'));
  // What waits beside Review and Leads: held Live quotes the person may decide, leads still new.
  const inbox = useInbox(access !== null && (access.review !== null || access.leads !== null));
  // New leads wait for those who work them; a viewer reads the Leads page but has nothing to do there.
  const waiting: Partial<Record<PortalPage, { count: number; words: string }>> = inbox.data
    ? {
        review: { count: inbox.data.heldQuotes, words: 'waiting for review' },
        leads: { count: access?.leads === 'use' ? inbox.data.newLeads : 0, words: 'new' },
      }
    : {};
  const waitingTotal = links.reduce((sum, { page }) => sum + (waiting[page]?.count ?? 0), 0);
  // On a phone the links fold into a menu (CSS hides them until it is opened); moving on closes it.
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [pathname]);
  return (
    <nav className={`nav${open ? ' open' : ''}`} aria-label="Portal">
      <div className="brand">
        Quote Pricing
        <button type="button" className="menu-toggle" aria-expanded={open} aria-controls="portal-links" onClick={() => setOpen(!open)}>
          {open ? 'Close' : 'Menu'}
          {/* On a phone the links are folded away: the menu says that something waits inside. */}
          {!open && waitingTotal > 0 && (
            <span className="nav-count">
              {pipelineCountText(waitingTotal)}
              <span className="sr-only"> waiting</span>
            </span>
          )}
        </button>
      </div>
      <div id="portal-links" className="links">
        {links.map(({ page, href, label }) => {
          const count = waiting[page];
          return (
            <IntentLink key={href} href={href} aria-current={current(href) ? 'page' : undefined}>
              {label}
              {count && count.count > 0 && (
                <span className="nav-count" data-testid={`nav-count-${page}`}>
                  {pipelineCountText(count.count)}
                  <span className="sr-only"> {count.words}</span>
                </span>
              )}
            </IntentLink>
          );
        })}
      </div>
      <div className="who">
        <div>{email}</div>
        <button type="button" onClick={signOut} style={{ marginTop: '0.5rem' }}>
          Sign out
        </button>
      </div>
    </nav>
  );
}

/**
 * next-auth's client (some 55 KB) is loaded when someone signs out, not with every portal page.
 * Should it fail to load (a dropped connection), next-auth's own sign-out page still signs out.
 */
async function signOut() {
  try {
    const { signOut: signOutOfNextAuth } = await import('next-auth/react');
    await signOutOfNextAuth({ callbackUrl: '/signin' });
  } catch {
    window.location.assign('/api/auth/signout');
  }
}

import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { getPortalSession } from '@/lib/sign-in/next-auth-options';
import { PortalMain } from '../_components/portal-main';
import { PortalNav } from '../_components/portal-nav';
import { Providers } from '../_components/providers';

export const dynamic = 'force-dynamic';

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const session = await getPortalSession();
  if (!session?.user) redirect('/signin?callbackUrl=/portal');
  return (
    <Providers>
      <div className="shell">
        <PortalNav email={session.user.email ?? ''} />
        <PortalMain>{children}</PortalMain>
      </div>
    </Providers>
  );
}

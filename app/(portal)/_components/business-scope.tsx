'use client';

import { Suspense, type ReactNode } from 'react';
import { Options } from './form-fields';
import { mayReadBusiness } from './portal-access';
import { useBusinesses, useWorkspaces, type Business } from './queries';
import { ScopePicker } from './scope-picker';
import { Empty, ErrorMessage, Loading } from './ui';
import { useHydrated } from './use-hydrated';
import { useUrlSelection } from './url-selection';

/**
 * A business picker (`?business=<id>`, the first business by default) above whatever the page
 * shows for the chosen business. Loading, error and "no businesses" states are handled here;
 * the page's part is keyed by the business, so its local state starts afresh on a switch.
 */
export function BusinessScope({ children }: { children: (business: Business) => ReactNode }) {
  return (
    <Suspense fallback={<Loading what="businesses" />}>
      <BusinessScopeContent>{children}</BusinessScopeContent>
    </Suspense>
  );
}

function BusinessScopeContent({ children }: { children: (business: Business) => ReactNode }) {
  const businesses = useBusinesses();
  const workspaces = useWorkspaces();
  // Businesses of a workspace are listed to all its members, but read only by theirs and by managers.
  const list = (businesses.data?.businesses ?? []).filter((b) => !workspaces.data || mayReadBusiness(b, workspaces.data.workspaces));
  const selection = useUrlSelection(
    'business',
    list.map((b) => b.id),
  );
  const hydrated = useHydrated();
  if (!hydrated || businesses.isPending || workspaces.isPending) return <Loading what="businesses" />;
  if (businesses.isError) return <ErrorMessage error={businesses.error} />;
  const business = list.find((b) => b.id === selection.selectedId);
  if (!business) return <Empty>You are not a member of any business yet. Ask a workspace admin to invite you.</Empty>;
  return (
    <ScopePicker
      noun="business"
      label="Business"
      selection={selection}
      selected={{ id: business.id, name: business.branding.displayName }}
      options={<Options choices={list.map((b) => ({ id: b.id, label: b.branding.displayName }))} />}
    >
      {children(business)}
    </ScopePicker>
  );
}

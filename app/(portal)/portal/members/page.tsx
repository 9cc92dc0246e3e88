'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../_components/api';
import { BusinessScope } from '../../_components/business-scope';
import { ConfirmButton } from '../../_components/confirm-button';
import type { Business } from '../../_components/queries';
import { Empty, ErrorMessage, Loading } from '../../_components/ui';

type Role = 'owner' | 'editor' | 'viewer';
type Member = { id: string; email: string; name: string | null; role: Role; status: 'active' | 'invited' | 'removed' };

const ROLES: { value: Role; label: string }[] = [
  { value: 'owner', label: 'Owner' },
  { value: 'editor', label: 'Editor' },
  { value: 'viewer', label: 'Viewer' },
];

const STATUS_LABEL: Record<Member['status'], string> = { active: 'Active', invited: 'Invited', removed: 'Removed' };

export default function MembersPage() {
  return (
    <>
      <h1>Members</h1>
      <p className="muted">Who can see and work on a business, and in which role.</p>
      <BusinessScope>{(business) => <Roster business={business} />}</BusinessScope>
    </>
  );
}

function Roster({ business }: { business: Business }) {
  const members = useQuery({
    queryKey: ['businesses', business.id, 'members'],
    queryFn: () => apiFetch<{ members: Member[] }>(`/v1/businesses/${business.id}/members`),
  });
  const isOwner = business.yourMembership?.role === 'owner';

  if (members.isPending) return <Loading what="members" />;
  if (members.isError && members.error instanceof ApiError && members.error.status === 404 && !business.yourMembership) {
    // Listed through the workspace, but the roster is for members and "businesses:manage" only.
    return (
      <p className="notice">
        Only members of this business, or workspace members with the “businesses:manage” permission, can see its roster.
      </p>
    );
  }
  if (members.isError) return <ErrorMessage error={members.error} />;
  if (members.data.members.length === 0) return <Empty>This business has no members yet.</Empty>;
  return (
    <section aria-labelledby="roster-heading">
      <h2 id="roster-heading">Roster of {business.branding.displayName}</h2>
      {!isOwner && (
        <p className="notice">
          {business.yourMembership
            ? `You are ${article(business.yourMembership.role)} of this business. Only owners can change roles or remove members.`
            : 'You see this roster through your workspace. Only owners of the business can change roles or remove members.'}
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th>Email</th>
            <th>Name</th>
            <th>Role</th>
            <th>Status</th>
            {isOwner && <th>Actions</th>}
          </tr>
        </thead>
        <tbody>
          {members.data.members.map((member) => (
            <MemberRow
              key={member.id}
              businessId={business.id}
              member={member}
              editable={isOwner}
              isYou={member.id === business.yourMembership?.id}
            />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function MemberRow({ businessId, member, editable, isYou }: { businessId: string; member: Member; editable: boolean; isYou: boolean }) {
  const queryClient = useQueryClient();
  // The roster and, for your own row, your membership in the business list both change.
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['businesses'] });
  const path = `/v1/businesses/${businessId}/members/${member.id}`;
  const changeRole = useMutation({
    mutationFn: (role: Role) => apiFetch(path, { method: 'PATCH', body: { role } }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: () => apiFetch(path, { method: 'DELETE' }), onSuccess: refresh });
  const failure = changeRole.error ?? remove.error;
  const columns = editable ? 5 : 4;

  return (
    <>
      <tr aria-label={member.email}>
        <td>
          {member.email} {isYou && <span className="badge">you</span>}
        </td>
        <td>{member.name ?? <span className="muted">—</span>}</td>
        <td>
          {editable ? (
            <select
              aria-label={`Role of ${member.email}`}
              value={member.role}
              disabled={changeRole.isPending || remove.isPending}
              onChange={(e) => {
                remove.reset();
                changeRole.mutate(e.target.value as Role);
              }}
            >
              {ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          ) : (
            ROLES.find((r) => r.value === member.role)?.label
          )}
        </td>
        <td>
          <span className={`badge ${member.status === 'active' ? 'ok' : ''}`}>{STATUS_LABEL[member.status]}</span>
        </td>
        {editable && (
          <td>
            <ConfirmButton
              label="Remove"
              accessibleLabel={`Remove ${member.email}`}
              question={isYou ? 'Remove yourself? You lose access at once.' : 'Remove this member? Their access ends at once.'}
              confirmLabel="Yes, remove"
              pending={remove.isPending}
              disabled={changeRole.isPending}
              onConfirm={() => {
                changeRole.reset();
                remove.mutate();
              }}
            />
          </td>
        )}
      </tr>
      {failure && (
        <tr>
          <td colSpan={columns}>
            <ErrorMessage error={failure} />
          </td>
        </tr>
      )}
    </>
  );
}

const article = (role: Role) => (role === 'owner' ? 'an owner' : role === 'editor' ? 'an editor' : 'a viewer');

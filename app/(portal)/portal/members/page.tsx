'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AnswerOf } from '@/lib/http/contract';
import type { inviteMemberContract, listMembersContract, removeMemberContract, updateMemberContract } from '@/app/v1/businesses/contract';
import { ApiError, apiFetch } from '../../_components/api';
import { BusinessScope } from '../../_components/business-scope';
import { ConfirmButton } from '../../_components/confirm-button';
import { describedBy, FieldError, useFieldErrors } from '../../_components/field-error';
import type { Business } from '../../_components/queries';
import { Empty, ErrorMessage, Loading } from '../../_components/ui';
import { ROLE_WORDS } from '../../_components/portal-access';
import { AskAnAdmin } from '../../_components/ask-an-admin';

type Member = AnswerOf<typeof listMembersContract>['members'][number];
type Role = Member['role'];

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
    queryFn: () => apiFetch<typeof listMembersContract>(`/v1/businesses/${business.id}/members`),
  });
  const isOwner = business.yourMembership?.role === 'owner';

  if (members.isPending) return <Loading what="members" />;
  if (members.isError && members.error instanceof ApiError && members.error.status === 404 && !business.yourMembership) {
    // Listed through the workspace, but the roster is for members and "businesses:manage" only.
    return (
      <p className="notice">
        Only members of this business, or workspace members allowed to manage businesses, can see its roster.{' '}
        <AskAnAdmin workspaceId={business.workspaceId} />
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
      <table className="cards" aria-label="Members">
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
      {isOwner && <InviteForm businessId={business.id} />}
    </section>
  );
}

/** Owners invite by email; the invitation becomes active when that person first signs in. */
function InviteForm({ businessId }: { businessId: string }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const invite = useMutation({
    mutationFn: () => apiFetch<typeof inviteMemberContract>(`/v1/businesses/${businessId}/members`, { method: 'POST', body: { email, role } }),
    onSuccess: () => {
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: ['businesses', businessId, 'members'] });
    },
  });
  const fieldErrors = useFieldErrors(invite.error);
  return (
    <form
      className="card"
      style={{ marginTop: '1rem' }}
      aria-labelledby="invite-heading"
      onSubmit={(event) => {
        event.preventDefault();
        fieldErrors.clearEdited();
        invite.mutate();
      }}
    >
      <h3 id="invite-heading" style={{ marginTop: 0 }}>
        Invite someone
      </h3>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <div className="field">
          <label htmlFor="invite-email">Email</label>
          <input
            id="invite-email"
            type="email"
            required
            value={email}
            {...describedBy('invite-email-error', fieldErrors.of('email'))}
            onChange={(event) => {
              setEmail(event.target.value);
              fieldErrors.markEdited('email');
            }}
          />
          <FieldError id="invite-email-error" messages={fieldErrors.of('email')} />
        </div>
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <button type="submit" className="primary" disabled={invite.isPending}>
            {invite.isPending ? 'Inviting…' : 'Send invitation'}
          </button>
        </div>
      </div>
      {invite.isSuccess && (
        <p className="success" role="status">
          Invited {invite.data.member.email}. They join as soon as they sign in with that email.
        </p>
      )}
      {invite.isError && !(invite.error instanceof ApiError && invite.error.fields.email) && <ErrorMessage error={invite.error} />}
    </form>
  );
}

function MemberRow({ businessId, member, editable, isYou }: { businessId: string; member: Member; editable: boolean; isYou: boolean }) {
  const queryClient = useQueryClient();
  // The roster and, for your own row, your membership in the business list both change.
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['businesses'] });
  const path = `/v1/businesses/${businessId}/members/${member.id}`;
  const changeRole = useMutation({
    mutationFn: (role: Role) => apiFetch<typeof updateMemberContract>(path, { method: 'PATCH', body: { role } }),
    onSuccess: (_, role) => {
      setSaved(role);
      return refresh();
    },
  });
  // A role chosen in the list waits for a confirmation; `saved` says what the last change did.
  const [proposed, setProposed] = useState<Role | null>(null);
  const [saved, setSaved] = useState<Role | null>(null);
  const remove = useMutation({ mutationFn: () => apiFetch<typeof removeMemberContract>(path, { method: 'DELETE' }), onSuccess: refresh });
  const failure = changeRole.error ?? remove.error;
  const columns = editable ? 5 : 4;

  return (
    <>
      <tr aria-label={member.email}>
        <td data-label="Email">
          {member.email} {isYou && <span className="badge">you</span>}
        </td>
        <td data-label="Name">{member.name ?? <span className="muted">—</span>}</td>
        <td data-label="Role">
          {editable ? (
            <select
              aria-label={`Role of ${member.email}`}
              value={proposed ?? member.role}
              disabled={changeRole.isPending || remove.isPending}
              onChange={(e) => {
                remove.reset();
                changeRole.reset();
                setSaved(null);
                const role = e.target.value as Role;
                setProposed(role === member.role ? null : role);
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
        <td data-label="Status">
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
      {proposed && (
        <tr>
          <td colSpan={columns}>
            <div className="confirm" role="group" aria-label={`Change the role of ${member.email}`}>
              <span>
                Make {isYou ? 'yourself' : member.email} {article(proposed)}? {ROLE_WORDS[proposed].can}.
              </span>
              <button
                type="button"
                className="primary"
                disabled={changeRole.isPending}
                onClick={() => changeRole.mutate(proposed, { onSettled: () => setProposed(null) })}
              >
                {changeRole.isPending ? 'Saving…' : `Yes, make ${article(proposed)}`}
              </button>
              <button type="button" onClick={() => setProposed(null)} disabled={changeRole.isPending}>
                Cancel
              </button>
            </div>
          </td>
        </tr>
      )}
      {saved && !proposed && (
        <tr>
          <td colSpan={columns}>
            <p className="success" role="status" style={{ margin: 0 }}>
              Saved: {isYou ? 'you are' : `${member.email} is`} now {article(saved)}.
            </p>
          </td>
        </tr>
      )}
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

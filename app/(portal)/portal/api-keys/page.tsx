'use client';

import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { listApiKeysContract } from '@/app/v1/api-keys/contract';
import { apiFetch } from '../../_components/api';
import { ProjectScope, type ProjectInWorkspace } from '../../_components/project-scope';
import { Empty, EnvironmentBadge, ErrorMessage, Loading } from '../../_components/ui';
import { RequiresAccess } from '../../_components/requires-access';
import styles from './_components/api-keys.module.css';
import { CreateKeyForm } from './_components/create-key-form';
import { KEY_TABLE_COLUMNS, KeyRow } from './_components/key-row';
import { ReceiptSigningKeys } from './_components/receipt-signing-keys';
import { SecretPanel } from './_components/secret-panel';
import { apiKeysQueryKey, type ApiKey, type RevealedSecret } from './_components/types';
import { AskAnAdmin } from '../../_components/ask-an-admin';

export default function ApiKeysPage() {
  return (
    <>
      <h1>API keys</h1>
      <p className="muted">
        Keys let your own servers ask for quotes. A Test key only ever sees Test prices, a Live key only Live ones.
      </p>
      <RequiresAccess page="apiKeys" needs="API keys belong to a workspace: its members see them, and those allowed to manage keys create, rotate and revoke them.">
        <ProjectScope>{(selected) => <ProjectKeys {...selected} />}</ProjectScope>
        <ReceiptSigningKeys />
      </RequiresAccess>
    </>
  );
}

function ProjectKeys({ workspace, project }: ProjectInWorkspace) {
  const mayManage = workspace.permissions.includes('api_keys:create');
  const keys = useQuery({
    queryKey: apiKeysQueryKey(project.id),
    queryFn: () => apiFetch<typeof listApiKeysContract>(`/v1/api-keys?projectId=${encodeURIComponent(project.id)}`),
  });
  const [creating, setCreating] = useState(false);
  // The only copy of a plaintext secret in the page; "Done" drops it.
  const [revealed, setRevealed] = useState<RevealedSecret | null>(null);
  const keysHeadingRef = useRef<HTMLHeadingElement>(null);

  return (
    <>
      {revealed && (
        <SecretPanel
          key={revealed.apiKey.id}
          revealed={revealed}
          onDone={() => {
            setRevealed(null);
            keysHeadingRef.current?.focus();
          }}
        />
      )}
      {!mayManage && (
        <p className="notice">
          You can see this project’s keys; creating, rotating and revoking them is for workspace members allowed to manage
          keys. <AskAnAdmin workspaceId={workspace.id} />
        </p>
      )}
      {creating && (
        <CreateKeyForm
          projectId={project.id}
          onCancel={() => {
            setCreating(false);
            keysHeadingRef.current?.focus();
          }}
          onCreated={(created) => {
            setCreating(false);
            setRevealed(created);
          }}
        />
      )}
      <section aria-labelledby="keys-heading">
        <div className={styles.toolbar}>
          <h2 id="keys-heading" ref={keysHeadingRef} tabIndex={-1}>
            Keys of {project.name}
          </h2>
          {mayManage && !creating && (
            <button type="button" className="primary" onClick={() => setCreating(true)}>
              Create key
            </button>
          )}
        </div>
        {keys.isPending ? (
          <Loading what="keys" />
        ) : keys.isError ? (
          <ErrorMessage error={keys.error} />
        ) : keys.data.apiKeys.length === 0 ? (
          <Empty>This project has no keys yet.{mayManage && ' Create one to let your servers ask for quotes.'}</Empty>
        ) : (
          <KeyTables keys={keys.data.apiKeys} projectId={project.id} mayManage={mayManage} onRotated={setRevealed} />
        )}
      </section>
    </>
  );
}

/** Live and Test apart, newest first; revoked keys only when asked for. */
function KeyTables({ keys, projectId, mayManage, onRotated }: { keys: ApiKey[]; projectId: string; mayManage: boolean; onRotated: (r: RevealedSecret) => void }) {
  const [showRevoked, setShowRevoked] = useState(false);
  const revoked = keys.filter((k) => k.status === 'revoked').length;
  // Rotation lineage, both ways: a successor names its predecessor and the other way round.
  const byId = new Map(keys.map((k) => [k.id, k]));
  const successorOf = new Map(keys.flatMap((k) => (k.predecessorId ? [[k.predecessorId, k] as const] : [])));
  return (
    <>
      <label className={styles.showRevoked}>
        <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.target.checked)} disabled={revoked === 0} /> Show revoked keys (
        {revoked})
      </label>
      {(['live', 'test'] as const).map((environment) => {
        const shown = keys.filter((k) => k.environment === environment && (showRevoked || k.status !== 'revoked'));
        return (
          <section key={environment} aria-labelledby={`keys-${environment}`}>
            <h3 id={`keys-${environment}`}>
              {environment === 'live' ? 'Live keys' : 'Test keys'} <EnvironmentBadge environment={environment} />
            </h3>
            {shown.length === 0 ? (
              <p className="muted">No {showRevoked ? '' : 'working '}{environment === 'live' ? 'Live' : 'Test'} keys.</p>
            ) : (
              <div className={styles.tableScroll}>
                <table className="cards" aria-label={environment === 'live' ? 'Live keys' : 'Test keys'}>
                  <thead>
                    <tr>
                      {KEY_TABLE_COLUMNS.map((column) => (
                        <th key={column}>{column}</th>
                      ))}
                      {mayManage && <th>Actions</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((apiKey) => (
                      <KeyRow
                        key={apiKey.id}
                        apiKey={apiKey}
                        replaces={apiKey.predecessorId ? (byId.get(apiKey.predecessorId) ?? null) : null}
                        replacedBy={successorOf.get(apiKey.id) ?? null}
                        projectId={projectId}
                        mayManage={mayManage}
                        onRotated={onRotated}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        );
      })}
    </>
  );
}

'use client';

import { IntentLink } from '../../../_components/intent-link';
import { useRef, useState } from 'react';
import { ProjectScope, type ProjectInWorkspace } from '../../_components/project-scope';
import { RequiresAccess } from '../../_components/requires-access';
import { Empty, ErrorMessage, Loading } from '../../_components/ui';
import { EndpointCard } from './_components/endpoint-card';
import { EndpointForm } from './_components/endpoint-form';
import { SigningSecretPanel } from './_components/signing-secret-panel';
import type { RevealedSigningSecret } from './_components/types';
import { useEndpoints } from './_components/use-webhooks';
import styles from './_components/webhooks.module.css';
import { AskAnAdmin } from '../../_components/ask-an-admin';

export default function WebhooksPage() {
  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">
        Webhooks tell your servers when something happens — a quote priced, a key rotated — by sending a signed HTTPS request to an
        endpoint of yours. A Test endpoint receives Test events only, a Live endpoint Live ones.
      </p>
      <RequiresAccess page="webhooks" needs="Webhooks are set up by workspace members allowed to manage them.">
        <ProjectScope>{(selected) => <ProjectWebhooks {...selected} />}</ProjectScope>
      </RequiresAccess>
    </>
  );
}

function ProjectWebhooks({ workspace, project }: ProjectInWorkspace) {
  if (!workspace.permissions.includes('webhooks:manage')) {
    return (
      <p className="notice">
        Seeing and managing this project’s webhooks is for workspace members allowed to manage webhooks.{' '}
        <AskAnAdmin workspaceId={workspace.id} />
      </p>
    );
  }
  return <ProjectEndpoints projectId={project.id} projectName={project.name} />;
}

function ProjectEndpoints({ projectId, projectName }: { projectId: string; projectName: string }) {
  const endpoints = useEndpoints(projectId);
  const [adding, setAdding] = useState(false);
  // The only copy of a plaintext signing secret in the page; "Done" drops it.
  const [revealed, setRevealed] = useState<RevealedSigningSecret | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  return (
    <>
      {revealed && (
        <SigningSecretPanel
          key={`${revealed.endpoint.id}-${revealed.endpoint.secretLast4}`}
          revealed={revealed}
          onDone={() => {
            setRevealed(null);
            headingRef.current?.focus();
          }}
        />
      )}
      {adding && (
        <EndpointForm
          projectId={projectId}
          onCancel={() => {
            setAdding(false);
            headingRef.current?.focus();
          }}
          onCreated={(created) => {
            setAdding(false);
            setRevealed(created);
          }}
        />
      )}
      <section aria-labelledby="endpoints-heading">
        <div className={styles.toolbar}>
          <h2 id="endpoints-heading" ref={headingRef} tabIndex={-1}>
            Endpoints of {projectName}
          </h2>
          {!adding && (
            <button type="button" className="primary" onClick={() => setAdding(true)}>
              Add endpoint
            </button>
          )}
        </div>
        {endpoints.isPending ? (
          <Loading what="endpoints" />
        ) : endpoints.isError ? (
          <ErrorMessage error={endpoints.error} />
        ) : endpoints.data.endpoints.length === 0 ? (
          <Empty>This project has no webhook endpoints yet. Add one to have events sent to your servers.</Empty>
        ) : (
          endpoints.data.endpoints.map((endpoint) => <EndpointCard key={endpoint.id} endpoint={endpoint} onRotated={setRevealed} />)
        )}
      </section>
      <p className="muted">
        Every delivery and its attempts are on the <IntentLink href={`/portal/webhooks/deliveries?project=${projectId}`}>deliveries page</IntentLink>. What each
        event means and an example of each: the <IntentLink href="/portal/webhooks/events">event catalogue</IntentLink>.
      </p>
    </>
  );
}

'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { setBrandingContract } from '@/app/v1/businesses/contract';
import { ApiError, apiFetch } from '../../_components/api';
import { BusinessScope } from '../../_components/business-scope';
import { describedBy, FieldError, useFieldErrors } from '../../_components/field-error';
import { useWorkspaces, type Business } from '../../_components/queries';
import { ErrorMessage, Loading } from '../../_components/ui';
import styles from './_components/branding.module.css';
import { ColourField } from './_components/colour-field';
import { HostedHeaderPreview, type BrandingDraft } from './_components/hosted-header-preview';
import { PublishGuardForm } from './_components/publish-guard-form';
import { mayEditBranding } from '../../_components/portal-access';
import { WhoCanChange } from './_components/who-can-change';

// What a business without saved colours shows (the portal's own blue and a warm accent).
const DEFAULT_COLOURS = { primary: '#1d4ed8', accent: '#f59e0b' };

export default function BrandingPage() {
  return (
    <>
      <h1>Branding</h1>
      <p className="muted">The name, logo and colours customers see on your hosted quote page.</p>
      <BusinessScope>
        {(business) => (
          <>
            <BrandingEditor business={business} />
            <PublishGuardForm business={business} />
          </>
        )}
      </BusinessScope>
    </>
  );
}

function draftOf(business: Business): BrandingDraft {
  const { displayName, logoUrl, primaryColor, accentColor, nextStep, acceptanceConsent, acceptanceConsentIsDefault } = business.branding;
  return {
    displayName,
    logoUrl: logoUrl ?? '',
    primaryColor: primaryColor ?? DEFAULT_COLOURS.primary,
    accentColor: accentColor ?? DEFAULT_COLOURS.accent,
    nextStepLabel: nextStep?.label ?? '',
    nextStepUrl: nextStep?.url ?? '',
    acceptanceConsent: acceptanceConsentIsDefault ? '' : acceptanceConsent,
  };
}

function BrandingEditor({ business }: { business: Business }) {
  const workspaces = useWorkspaces();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(business));
  const save = useMutation({
    mutationFn: (body: BrandingDraft) =>
      apiFetch<typeof setBrandingContract>(`/v1/businesses/${business.id}/branding`, {
        method: 'PUT',
        body: {
          displayName: body.displayName.trim(),
          logoUrl: body.logoUrl.trim() || null,
          primaryColor: body.primaryColor,
          accentColor: body.accentColor,
          // Both empty removes the button; one of the two alone is sent, and refused beside its field.
          nextStep: body.nextStepLabel.trim() || body.nextStepUrl.trim() ? { label: body.nextStepLabel.trim(), url: body.nextStepUrl.trim() } : null,
          // Empty brings back the default sentence, which names the business.
          acceptanceConsent: body.acceptanceConsent.trim() || null,
        },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['businesses'] }),
  });
  const fieldErrors = useFieldErrors(save.error);

  if (workspaces.isPending) return <Loading what="your permissions" />;
  // Without the workspace list the API still decides; a refusal (403) disables the form below.
  const refused = save.error instanceof ApiError && save.error.status === 403;
  const editable = !refused && (workspaces.isError || mayEditBranding(business, workspaces.data.workspaces));
  const saved = draftOf(business);

  const edit = (change: Partial<BrandingDraft>) => {
    setDraft((current) => ({ ...current, ...change }));
    for (const field of Object.keys(change)) fieldErrors.markEdited(field);
    if (save.isSuccess) save.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    fieldErrors.clearEdited();
    save.mutate(draft);
  };

  return (
    <div className={styles.layout}>
      <form className={`card ${styles.form}`} onSubmit={submit} noValidate aria-label="Branding">
        {!editable && <WhoCanChange business={business} what="branding" id="branding-locked" />}
        <fieldset disabled={!editable || save.isPending} aria-describedby={editable ? undefined : 'branding-locked'}>
          <div className="field">
            <label htmlFor="branding-display-name">Display name</label>
            <input
              id="branding-display-name"
              type="text"
              value={draft.displayName}
              onChange={(e) => edit({ displayName: e.target.value })}
              maxLength={120}
              {...describedBy('branding-display-name-error', fieldErrors.of('displayName'))}
            />
            <FieldError
              id="branding-display-name-error"
              messages={fieldErrors.of('displayName')}
              explanation="Enter the name customers know you by (up to 120 characters)."
            />
          </div>
          <div className="field">
            <label htmlFor="branding-logo-url">Logo URL</label>
            <input
              id="branding-logo-url"
              type="url"
              inputMode="url"
              placeholder="https://…"
              value={draft.logoUrl}
              onChange={(e) => edit({ logoUrl: e.target.value })}
              {...describedBy('branding-logo-url-error', fieldErrors.of('logoUrl'))}
            />
            <p className={`muted ${styles.hint}`}>Optional. The address of an image on a secure (https://) site.</p>
            <FieldError
              id="branding-logo-url-error"
              messages={fieldErrors.of('logoUrl')}
              explanation="Enter an address that starts with https://, or leave it empty."
            />
          </div>
          <ColourField
            id="branding-primary-color"
            label="Primary colour"
            value={draft.primaryColor}
            onChange={(primaryColor) => edit({ primaryColor })}
            fallback={saved.primaryColor}
            errors={fieldErrors.of('primaryColor')}
          />
          <ColourField
            id="branding-accent-color"
            label="Accent colour"
            value={draft.accentColor}
            onChange={(accentColor) => edit({ accentColor })}
            fallback={saved.accentColor}
            errors={fieldErrors.of('accentColor')}
          />
          <div className="field">
            <label htmlFor="branding-next-step-label">Button under the price</label>
            <input
              id="branding-next-step-label"
              type="text"
              placeholder="Book this visit"
              value={draft.nextStepLabel}
              onChange={(e) => edit({ nextStepLabel: e.target.value })}
              maxLength={60}
              {...describedBy('branding-next-step-label-error', fieldErrors.of('nextStep.label'))}
            />
            <FieldError id="branding-next-step-label-error" messages={fieldErrors.of('nextStep.label')} explanation="Enter the button's words (up to 60 characters), or leave both empty." />
          </div>
          <div className="field">
            <label htmlFor="branding-next-step-url">Where the button goes</label>
            <input
              id="branding-next-step-url"
              type="url"
              inputMode="url"
              placeholder="https://…"
              value={draft.nextStepUrl}
              onChange={(e) => edit({ nextStepUrl: e.target.value })}
              {...describedBy('branding-next-step-url-error', fieldErrors.of('nextStep.url'))}
            />
            <p className={`muted ${styles.hint}`}>Optional. Your booking page, say: customers see the button with their price, and it opens with <code>?quote=&lt;quote id&gt;</code> added, so that your page knows which price they saw.</p>
            <FieldError id="branding-next-step-url-error" messages={fieldErrors.of('nextStep.url')} explanation="Enter an address that starts with https://, or leave both empty." />
          </div>
          <div className="field">
            <label htmlFor="branding-acceptance-consent">What customers agree to when they accept a quote</label>
            <textarea
              id="branding-acceptance-consent"
              rows={2}
              maxLength={500}
              placeholder={`I agree that ${draft.displayName.trim() || business.branding.displayName} may contact me about this quote.`}
              value={draft.acceptanceConsent}
              onChange={(e) => edit({ acceptanceConsent: e.target.value })}
              {...describedBy('branding-acceptance-consent-error', fieldErrors.of('acceptanceConsent'))}
            />
            <p className={`muted ${styles.hint}`}>Shown beside the tick box under “Accept this quote”. Leave it empty for the sentence shown greyed out.</p>
            <FieldError
              id="branding-acceptance-consent-error"
              messages={fieldErrors.of('acceptanceConsent')}
              explanation="Write a sentence of 10 to 500 characters, or leave it empty."
            />
          </div>
          <div className="row">
            <button type="submit" className="primary">
              {save.isPending ? 'Saving…' : 'Save branding'}
            </button>
            <button
              type="button"
              onClick={() => {
                setDraft(saved);
                save.reset();
              }}
              disabled={JSON.stringify(draft) === JSON.stringify(saved)}
            >
              Undo changes
            </button>
          </div>
        </fieldset>
        <div aria-live="polite">
          {save.isSuccess && (
            <p className="success" style={{ marginBottom: 0 }}>
              Saved. Your hosted quote page shows the new branding from now on.
            </p>
          )}
          {save.isError && !refused && fieldErrors.any && (
            <p className="error" style={{ marginBottom: 0 }}>
              Nothing was saved: please correct the fields marked above.
            </p>
          )}
          {save.isError && !refused && !fieldErrors.any && <ErrorMessage error={save.error} />}
          {refused && (
            <p className="error" style={{ marginBottom: 0 }}>
              Not saved: you do not have permission to change this business’s branding.
            </p>
          )}
        </div>
      </form>
      <HostedHeaderPreview draft={draft} fallbackColours={{ primary: saved.primaryColor, accent: saved.accentColor }} />
    </div>
  );
}

'use client';

import { OneTimeSecret } from '../../../_components/one-time-secret';
import { ENVIRONMENT_LABEL, formatTime } from '../../../_components/ui';
import type { RevealedSigningSecret } from './types';

/** A new endpoint's or a rotation's signing secret, the one time it is visible. */
export function SigningSecretPanel({ revealed, onDone }: { revealed: RevealedSigningSecret; onDone: () => void }) {
  const { endpoint } = revealed;
  const overlapEnds = endpoint.previousSecretExpiresAt;
  return (
    <OneTimeSecret
      heading={
        revealed.kind === 'created'
          ? `The signing secret of your new ${ENVIRONMENT_LABEL[endpoint.environment]} endpoint`
          : `The new signing secret of ${hostOf(endpoint.url)}`
      }
      warning={
        <>
          <strong>Copy this signing secret now: it will not be shown again.</strong> Your receiver uses it to check the{' '}
          <code>Service-Signature</code> header of every delivery. Store it in your server’s secret settings; if it is ever lost,
          rotate the secret to get a new one.
        </>
      }
      secretLabel="Signing secret"
      secret={revealed.secret}
      onDone={onDone}
    >
      {revealed.kind === 'rotated' && (
        <p>
          {overlapEnds
            ? `Until ${formatTime(overlapEnds)} every delivery is signed with both the old and the new secret, ` +
              'so your receiver can switch without missing any.'
            : 'The old secret no longer signs deliveries. Put the new one in place now.'}
        </p>
      )}
    </OneTimeSecret>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

'use client';

import { OneTimeSecret } from '../../../_components/one-time-secret';
import { ENVIRONMENT_LABEL, formatTime } from '../../../_components/ui';
import type { ApiKey, RevealedSecret } from './types';

/** A new or rotated key's secret, the one time it is visible. */
export function SecretPanel({ revealed, onDone }: { revealed: RevealedSecret; onDone: () => void }) {
  const environment = ENVIRONMENT_LABEL[revealed.apiKey.environment];
  return (
    <OneTimeSecret
      heading={
        revealed.kind === 'created'
          ? `Your new ${environment} key “${revealed.apiKey.name}”`
          : `The new ${environment} key replacing “${revealed.apiKey.name}”`
      }
      warning={
        <>
          <strong>Copy this key now: it will not be shown again.</strong> We keep only a fingerprint of it, so nobody can look it up
          later. Store it in your server’s secret settings; if it is ever lost, rotate the key to get a new one.
        </>
      }
      secretLabel="Secret key"
      secret={revealed.secret}
      onDone={onDone}
    >
      {revealed.kind === 'rotated' && <p>{predecessorFate(revealed.predecessor)}</p>}
    </OneTimeSecret>
  );
}

function predecessorFate(predecessor: Pick<ApiKey, 'status' | 'revokedAt'>) {
  if (predecessor.status === 'revoked') return 'The old key has stopped working. Put the new key in place now.';
  return `The old key keeps working until ${formatTime(predecessor.revokedAt!)}. Put the new key in place before then.`;
}

'use client';

import { signIn } from 'next-auth/react';
import { useState } from 'react';

export function OidcSignInButton({ callbackUrl, label }: { callbackUrl: string; label: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="primary"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void signIn('oidc', { callbackUrl });
      }}
    >
      {busy ? 'Redirecting…' : `Sign in with ${label}`}
    </button>
  );
}

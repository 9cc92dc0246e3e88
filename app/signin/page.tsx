import { redirect } from 'next/navigation';
import { devSignInEnabled } from '@/lib/auth/dev-sign-in';
import { settings } from '@/lib/settings/settings';
import { getPortalSession } from '@/lib/sign-in/next-auth-options';
import { OidcSignInButton } from './oidc-sign-in-button';

export const dynamic = 'force-dynamic';

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl = '/portal', error } = await searchParams;
  const safeCallback = callbackUrl.startsWith('/') && !callbackUrl.startsWith('//') ? callbackUrl : '/portal';
  if (await getPortalSession()) redirect(safeCallback);
  const { OIDC_ISSUER, OIDC_NAME } = settings();
  const oidc = Boolean(OIDC_ISSUER);
  const dev = devSignInEnabled();
  return (
    <main className="main" style={{ maxWidth: 420, margin: '4rem auto' }}>
      <h1>Sign in to the Business Portal</h1>
      {error && (
        <p className="error" role="alert">
          Sign-in did not complete ({error}). Try again, or ask your workspace admin for access.
        </p>
      )}
      {oidc && <OidcSignInButton callbackUrl={safeCallback} label={OIDC_NAME} />}
      {dev && (
        <form method="post" action="/api/auth/dev-login" className="card" style={{ marginTop: '1rem' }}>
          <p className="muted" style={{ marginTop: 0 }}>
            Development sign-in (embedded database only). The demo people are listed in <code>.data/demo.json</code>.
          </p>
          <input type="hidden" name="callbackUrl" value={safeCallback} />
          <div className="field">
            <label htmlFor="email">Email</label>
            <input id="email" name="email" type="email" required autoComplete="email" style={{ width: '100%' }} />
          </div>
          <button type="submit" className="primary">
            Sign in without a password
          </button>
        </form>
      )}
      {!oidc && !dev && <p className="error">No sign-in method is configured. Set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.</p>}
    </main>
  );
}

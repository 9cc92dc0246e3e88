// Development sign-in: POST email=… -> a real database session and next-auth's cookie.
// Answers 404 wherever it is disabled (see lib/auth/dev-sign-in.ts), so it is invisible there.
import { devSignInEnabled } from '@/lib/auth/dev-sign-in';
import { SESSION_MAX_AGE_SECONDS, createSession } from '@/lib/auth/sessions';
import { systemContext } from '@/lib/context/verb-context';
import { getDb } from '@/lib/db/client';
import { ensureUser } from '@/lib/members/add-members';
import { acceptInvitations } from '@/lib/members/invite-business-member';
import { settings } from '@/lib/settings/settings';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  if (!devSignInEnabled()) return new Response('Not found', { status: 404 });
  const appUrl = new URL(settings().NEXTAUTH_URL!);
  // Login CSRF: a browser's form post carries Origin, and it must be ours.
  if (request.headers.get('origin') !== appUrl.origin) return new Response('Cross-site sign-in refused', { status: 403 });
  const form = await request.formData();
  const email = String(form.get('email') ?? '').trim().toLowerCase();
  const next = String(form.get('callbackUrl') ?? '/portal');
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) return new Response('Enter an email address', { status: 400 });
  const now = new Date();
  const db = getDb();
  // Signing in is done before there is a session: the system does it, for the person.
  const ctx = systemContext(db, 'dev-sign-in', now);
  const user = await ensureUser(ctx, { email, name: email.split('@')[0] });
  await acceptInvitations(ctx, { userId: user.id });
  const token = await createSession(db, user.id, now);
  const expires = new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
  const location = new URL(next.startsWith('/') && !next.startsWith('//') ? next : '/portal', appUrl);
  return new Response(null, {
    status: 303,
    headers: {
      location: location.toString(),
      'set-cookie': `next-auth.session-token=${token}; Path=/; HttpOnly; SameSite=Lax; Expires=${expires.toUTCString()}`,
    },
  });
}

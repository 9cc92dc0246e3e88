// A next-auth v4 adapter over our Prisma client. Users and account links are plain rows; the
// session token next-auth hands us is stored only as its sha256 digest (lib/auth/sessions.ts):
// the plaintext goes back to next-auth once, on createSession, and becomes the cookie.
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser } from 'next-auth/adapters';
import type { PrismaClient } from '../db/generated/client';
import { digestOf } from './secret-digest';

type UserRow = { id: string; name: string | null; email: string; emailVerified: Date | null; image: string | null };
const userSelect = { id: true, name: true, email: true, emailVerified: true, image: true } as const;
const toAdapterUser = (u: UserRow): AdapterUser => ({ ...u });

export function hashedSessionAdapter(prisma: PrismaClient): Adapter {
  return {
    async createUser(user: Omit<AdapterUser, 'id'>) {
      const email = user.email.trim().toLowerCase();
      // An invited person already has a row (by email): sign-in adopts it.
      const row = await prisma.user.upsert({
        where: { email },
        create: { email, name: user.name ?? null, emailVerified: user.emailVerified, image: user.image ?? null },
        update: { name: user.name ?? undefined, emailVerified: user.emailVerified },
        select: userSelect,
      });
      return toAdapterUser(row);
    },
    async getUser(id) {
      const u = await prisma.user.findUnique({ where: { id }, select: userSelect });
      return u && toAdapterUser(u);
    },
    async getUserByEmail(email) {
      const u = await prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: userSelect });
      return u && toAdapterUser(u);
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const a = await prisma.oAuthAccount.findUnique({
        where: { provider_providerAccountId: { provider, providerAccountId } },
        select: { user: { select: userSelect } },
      });
      return a ? toAdapterUser(a.user) : null;
    },
    async updateUser({ id, name, emailVerified, image }) {
      return toAdapterUser(await prisma.user.update({ where: { id }, data: { name, emailVerified, image }, select: userSelect }));
    },
    // Only the link is kept, never the IdP's access, refresh or ID tokens: we call no IdP API.
    async linkAccount(account: AdapterAccount) {
      await prisma.oAuthAccount.create({
        data: { userId: account.userId, type: account.type, provider: account.provider, providerAccountId: account.providerAccountId },
      });
    },
    async createSession({ sessionToken, userId, expires }) {
      await prisma.session.create({ data: { sessionToken: digestOf(sessionToken), userId, expires } });
      return { sessionToken, userId, expires };
    },
    async getSessionAndUser(sessionToken) {
      const row = await prisma.session.findUnique({
        where: { sessionToken: digestOf(sessionToken) },
        select: { userId: true, expires: true, user: { select: userSelect } },
      });
      if (!row) return null;
      return { session: { sessionToken, userId: row.userId, expires: row.expires }, user: toAdapterUser(row.user) };
    },
    async updateSession({ sessionToken, expires }) {
      const digest = digestOf(sessionToken);
      const { count } = await prisma.session.updateMany({ where: { sessionToken: digest }, data: expires ? { expires } : {} });
      if (count === 0) return null;
      const row = await prisma.session.findUnique({ where: { sessionToken: digest } });
      return row && ({ sessionToken, userId: row.userId, expires: row.expires } satisfies AdapterSession);
    },
    async deleteSession(sessionToken) {
      await prisma.session.deleteMany({ where: { sessionToken: digestOf(sessionToken) } });
    },
  };
}

// A next-auth v4 adapter over our Prisma client. Users and account links are plain rows; the
// session token next-auth hands us is stored only as its sha256 digest (lib/auth/sessions.ts):
// the plaintext goes back to next-auth once, on createSession, and becomes the cookie.
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser } from 'next-auth/adapters';
import type { PrismaClient } from '../db/generated/client';
import { digestOf } from './secret-digest';
import {
  deleteSession,
  extendSession,
  findSessionWithUser,
  findUserByAccount,
  findUserByEmail,
  findUserById,
  insertAccountLink,
  insertSession,
  updateUser,
  upsertUserByEmail,
  type UserRow,
} from './store';

const toAdapterUser = (u: UserRow): AdapterUser => ({ ...u });

export function hashedSessionAdapter(prisma: PrismaClient): Adapter {
  return {
    async createUser(user: Omit<AdapterUser, 'id'>) {
      // An invited person already has a row (by email): sign-in adopts it.
      return toAdapterUser(await upsertUserByEmail(prisma, { ...user, email: user.email.trim().toLowerCase() }));
    },
    async getUser(id) {
      const u = await findUserById(prisma, id);
      return u && toAdapterUser(u);
    },
    async getUserByEmail(email) {
      const u = await findUserByEmail(prisma, email.trim().toLowerCase());
      return u && toAdapterUser(u);
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const u = await findUserByAccount(prisma, provider, providerAccountId);
      return u && toAdapterUser(u);
    },
    async updateUser({ id, name, emailVerified, image }) {
      return toAdapterUser(await updateUser(prisma, id, { name, emailVerified, image }));
    },
    // Only the link is kept, never the IdP's access, refresh or ID tokens: we call no IdP API.
    async linkAccount(account: AdapterAccount) {
      const { userId, type, provider, providerAccountId } = account;
      await insertAccountLink(prisma, { userId, type, provider, providerAccountId });
    },
    async createSession({ sessionToken, userId, expires }) {
      await insertSession(prisma, { tokenDigest: digestOf(sessionToken), userId, expires });
      return { sessionToken, userId, expires };
    },
    async getSessionAndUser(sessionToken) {
      const row = await findSessionWithUser(prisma, digestOf(sessionToken));
      if (!row) return null;
      return { session: { sessionToken, userId: row.userId, expires: row.expires }, user: toAdapterUser(row.user) };
    },
    async updateSession({ sessionToken, expires }) {
      const row = await extendSession(prisma, digestOf(sessionToken), expires);
      return row && ({ sessionToken, userId: row.userId, expires: row.expires } satisfies AdapterSession);
    },
    async deleteSession(sessionToken) {
      await deleteSession(prisma, digestOf(sessionToken));
    },
  };
}

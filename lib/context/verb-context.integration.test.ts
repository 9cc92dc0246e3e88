import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createProject } from '../accounts/create-project';
import { createWorkspace } from '../accounts/create-workspace';
import type { DbOrTx } from '../db/client';
import { testContext, testDb } from '../testing/factories';
import { withTransaction, type VerbContext } from './verb-context';

/** A verb that needs a transaction: it writes a workspace in one, and says which client it wrote with. */
async function writeWorkspace(ctx: VerbContext, input: { slug: string; wroteWith: DbOrTx[] }) {
  return withTransaction(ctx, async (tx) => {
    input.wroteWith.push(tx.db);
    return createWorkspace(tx, { slug: input.slug, name: `Workspace ${input.slug}` });
  });
}

const slug = () => `verb-context-${randomUUID().slice(0, 8)}`;

describe('withTransaction', () => {
  it("joins the caller's transaction: a throw in the outer rolls the inner verb's write back", async () => {
    const inner = slug();
    const wroteWith: DbOrTx[] = [];
    const failure = new Error('the outer step fails after the inner verb wrote');
    let projectId: string | undefined;
    await expect(
      withTransaction(testContext(testDb()), async (tx) => {
        const workspace = await writeWorkspace(tx, { slug: inner, wroteWith });
        // The very same transaction, not a savepoint inside it.
        expect(wroteWith[0]).toBe(tx.db);
        // A real verb with a transaction of its own when called alone: joined here, it sees the
        // workspace written above and not yet committed (on another connection its insert would
        // wait for this transaction, which waits for it).
        projectId = (await createProject(tx, { workspaceId: workspace.id, name: 'Joined' })).id;
        // Before the outer step fails, both writes are there for this transaction, and only for it.
        expect(await tx.db.project.count({ where: { id: projectId, workspace: { slug: inner } } })).toBe(1);
        expect(await testDb().workspace.count({ where: { slug: inner } })).toBe(0);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(wroteWith).toHaveLength(1);
    expect(await testDb().workspace.count({ where: { slug: inner } })).toBe(0);
    expect(await testDb().project.count({ where: { id: projectId! } })).toBe(0);
  });

  it('opens a transaction of its own without an outer one, and commits it when the verb returns', async () => {
    const alone = slug();
    const wroteWith: DbOrTx[] = [];
    const ctx = testContext(testDb());
    const workspace = await writeWorkspace(ctx, { slug: alone, wroteWith });
    expect(wroteWith).toHaveLength(1);
    expect(wroteWith[0]).not.toBe(ctx.db); // a transaction's client, not the shared one
    // Committed: another connection sees it.
    expect(await testDb().workspace.findUnique({ where: { slug: alone }, select: { id: true } })).toEqual({ id: workspace.id });
  });
});

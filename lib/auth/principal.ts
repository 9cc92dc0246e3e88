/** An Environment of a project: every key, publication and quote belongs to one. */
export type EnvironmentName = 'test' | 'live';

/** Who is calling. Built once per request by the route wrapper. */
export type ApiKeyPrincipal = {
  kind: 'api_key';
  keyId: string;
  workspaceId: string;
  projectId: string;
  environmentId: string;
  environment: EnvironmentName;
  scopes: string[];
  /**
   * Set on a key this request took from the process's memory instead of the database
   * (authenticateQuoteKey): the quote's insert re-checks the key and marks it confirmed here, so
   * that the answer goes out under a key the database has just vouched for. One per request.
   */
  fromMemory?: { confirmed: boolean };
};

/** Where an API key's work belongs: its workspace, project and environment (events, request logs). */
export function tenancyOfKey(key: Pick<ApiKeyPrincipal, 'workspaceId' | 'projectId' | 'environmentId'>) {
  return { workspaceId: key.workspaceId, projectId: key.projectId, environmentId: key.environmentId };
}

/** A signed-in person (portal cookie, or their session token as a bearer). */
export type SessionPrincipal = {
  kind: 'session';
  sessionId: string;
  userId: string;
  email: string;
  name: string | null;
  /** Signed in through the portal's cookie (the portal itself calling), not a bearer token. */
  viaCookie?: boolean;
};

export type AnonymousPrincipal = { kind: 'anonymous' };

export type Principal = ApiKeyPrincipal | SessionPrincipal | AnonymousPrincipal;

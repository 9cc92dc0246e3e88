import type { EnvironmentName } from '../keys/secrets';

/** Who is calling. Built once per request by the route wrapper. */
export type ApiKeyPrincipal = {
  kind: 'api_key';
  keyId: string;
  workspaceId: string;
  projectId: string;
  environmentId: string;
  environment: EnvironmentName;
  scopes: string[];
};

export type AnonymousPrincipal = { kind: 'anonymous' };

export type Principal = ApiKeyPrincipal | AnonymousPrincipal;

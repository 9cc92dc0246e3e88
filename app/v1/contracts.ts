import type { RouteContract } from '@/lib/http/contract';
import {
  accountRequestLogsContract,
  confirmCommitmentContract,
  createAccountQuoteContract,
  currentAccountContract,
  getAccountContract,
  listAccountsContract,
  quoteSpecContract,
  simulateContract,
} from './accounts/contract';
import {
  createEndpointContract,
  deleteEndpointContract,
  getDeliveryContract,
  getEndpointContract,
  listDeliveriesContract,
  listEndpointsContract,
  replayDeliveryContract,
  rotateEndpointSecretContract,
  sendTestEventContract,
  updateEndpointContract,
} from './webhook-endpoints/contract';
import { listWorkspacesContract, meContract } from './workspaces/contract';
import { traceQuoteContract } from './quote-intents/contract';
import { getRequestLogContract, searchRequestLogsContract } from './request-logs/contract';
import {
  createBookContract,
  createVersionContract,
  getBookContract,
  getVersionContract,
  listBooksContract,
  previewContract,
  impactContract,
  publishContract,
  listPublicationsContract,
  saveDraftContract,
} from './books/contract';
import { createApiKeyContract, listApiKeysContract, revokeApiKeyContract, rotateApiKeyContract } from './api-keys/contract';
import {
  createMemberQuoteContract,
  inviteMemberContract,
  listBusinessesContract,
  listMembersContract,
  removeMemberContract,
  setBrandingContract,
  setPublishGuardContract,
  listBusinessQuotesContract,
  updateMemberContract,
} from './businesses/contract';
import { createPublicQuoteContract, getPublicQuoteContract } from './public_quotes/contract';
import { createApiQuoteContract } from './quotes/contract';
import { openApiContract } from './openapi.json/contract';
import { statusContract } from './status/contract';

/** Every /v1 contract; the OpenAPI document is built from this list (a test checks it is complete). */
export const contracts: RouteContract[] = [
  statusContract,
  openApiContract,
  createPublicQuoteContract,
  getPublicQuoteContract,
  createApiQuoteContract,
  listBusinessesContract,
  listMembersContract,
  inviteMemberContract,
  updateMemberContract,
  removeMemberContract,
  setBrandingContract,
  setPublishGuardContract,
  listBusinessQuotesContract,
  createMemberQuoteContract,
  createApiKeyContract,
  listApiKeysContract,
  rotateApiKeyContract,
  revokeApiKeyContract,
  listBooksContract,
  createBookContract,
  getBookContract,
  saveDraftContract,
  previewContract,
  impactContract,
  createVersionContract,
  getVersionContract,
  publishContract,
  listPublicationsContract,
  searchRequestLogsContract,
  getRequestLogContract,
  traceQuoteContract,
  listWorkspacesContract,
  meContract,
  createEndpointContract,
  listEndpointsContract,
  getEndpointContract,
  updateEndpointContract,
  deleteEndpointContract,
  rotateEndpointSecretContract,
  sendTestEventContract,
  listDeliveriesContract,
  getDeliveryContract,
  replayDeliveryContract,
  currentAccountContract,
  listAccountsContract,
  getAccountContract,
  quoteSpecContract,
  simulateContract,
  createAccountQuoteContract,
  confirmCommitmentContract,
  accountRequestLogsContract,
] as RouteContract[];

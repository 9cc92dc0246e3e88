import type { ApiKeyPrincipal, SessionPrincipal } from '../auth/principal';

/**
 * Who changes a key: a person (the portal, the API with a session), or a Test key triggering the
 * event on purpose (POST /v1/event-triggers, `qps trigger`), which is no person.
 */
export type KeyActor = SessionPrincipal | ApiKeyPrincipal;

type ActorField = 'createdBy' | 'rotatedBy' | 'revokedBy';

/**
 * How a key event names its actor: the person's id under the verb's field, or, for a triggered
 * event, `triggeredBy` with the Test key that asked (docs/events.md). Never a made-up person.
 */
export function actorFields(actor: KeyActor, field: ActorField): Record<string, unknown> {
  return actor.kind === 'session' ? { [field]: actor.userId } : { triggeredBy: { apiKeyId: actor.keyId } };
}

/** The person a key row records as its creator, if a person made it. */
export function actorUserId(actor: KeyActor): string | undefined {
  return actor.kind === 'session' ? actor.userId : undefined;
}

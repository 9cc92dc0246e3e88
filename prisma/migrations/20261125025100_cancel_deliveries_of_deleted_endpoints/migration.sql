-- Hand-written data migration, apart from the one that adds 'canceled' because PostgreSQL
-- refuses a new enum value in the transaction that added it: deliveries left pending by
-- endpoints deleted before deleting canceled them become canceled now.
UPDATE webhook_deliveries d
SET status = 'canceled', canceled_at = now(), next_attempt_at = NULL, leased_until = NULL, updated_at = now()
FROM webhook_endpoints w
WHERE w.id = d.endpoint_id AND w.deleted_at IS NOT NULL AND d.status = 'pending';

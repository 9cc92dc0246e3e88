// What changed between two price book artifacts, entity by entity, so a person can read it:
// offerings, factors and rules matched by id, with each changed field's old and new value.

export type EntityKind = 'offering' | 'factor' | 'rule';

/** One field's change; `undefined` (absent in JSON) means the field is not set on that side. */
export type FieldChange = { field: string; before?: unknown; after?: unknown };

export type EntityChange = {
  kind: EntityKind;
  id: string;
  /** The label after the change (before it, for a removed entity). */
  label: string;
  change: 'added' | 'removed' | 'changed';
  /** For `changed` only: the fields that differ, dotted (`adjustment.basisPoints`, `options.large.label`). */
  fields: FieldChange[];
};

export type ArtifactDiff = {
  /** Book-wide settings: currency, autonomy, format version. */
  settings: FieldChange[];
  entities: EntityChange[];
  conditions: { added: string[]; removed: string[] };
  /** Rules kept on both sides are evaluated in a different order (order matters within a phase). */
  ruleOrderChanged: boolean;
};

const SETTINGS = ['formatVersion', 'currency', 'autonomy'] as const;
const COLLECTIONS = [
  ['offerings', 'offering'],
  ['factors', 'factor'],
  ['rules', 'rule'],
] as const;

type Entity = Record<string, unknown> & { id: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const hasId = (value: unknown): value is Entity => isRecord(value) && typeof value.id === 'string';

/** JSON with sorted keys, so equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * Flattens an entity into dotted fields. Lists of things with ids (a factor's options) are
 * keyed by id, so adding one option reads as one change rather than every later one shifting.
 */
function flatten(value: unknown, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  const join = (key: string) => (prefix ? `${prefix}.${key}` : key);
  if (isRecord(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) {
      if (!(prefix === '' && key === 'id')) flatten(inner, join(key), out);
    }
  } else if (Array.isArray(value) && value.length > 0 && value.every(hasId)) {
    for (const item of value) {
      const { id, ...rest } = item;
      flatten(rest, join(id), out);
    }
  } else {
    out.set(prefix, value);
  }
  return out;
}

function diffFields(before: unknown, after: unknown): FieldChange[] {
  const old = flatten(before, '', new Map());
  const next = flatten(after, '', new Map());
  const fields = [...new Set([...old.keys(), ...next.keys()])];
  return fields
    .filter((field) => canonical(old.get(field)) !== canonical(next.get(field)))
    .map((field) => ({ field, before: old.get(field), after: next.get(field) }));
}

function entitiesOf(artifact: unknown, collection: string): Entity[] {
  const list = isRecord(artifact) ? artifact[collection] : undefined;
  return Array.isArray(list) ? list.filter(hasId) : [];
}

const labelOf = (entity: Entity) => (typeof entity.label === 'string' ? entity.label : entity.id);

function diffEntities(before: unknown, after: unknown): EntityChange[] {
  const changes: EntityChange[] = [];
  for (const [collection, kind] of COLLECTIONS) {
    const old = new Map(entitiesOf(before, collection).map((e) => [e.id, e]));
    const next = new Map(entitiesOf(after, collection).map((e) => [e.id, e]));
    for (const [id, entity] of next) {
      const previous = old.get(id);
      if (!previous) {
        changes.push({ kind, id, label: labelOf(entity), change: 'added', fields: [] });
        continue;
      }
      const fields = diffFields(previous, entity);
      if (fields.length > 0) changes.push({ kind, id, label: labelOf(entity), change: 'changed', fields });
    }
    for (const [id, entity] of old) {
      if (!next.has(id)) changes.push({ kind, id, label: labelOf(entity), change: 'removed', fields: [] });
    }
  }
  return changes;
}

function stringsOf(artifact: unknown, field: string): string[] {
  const list = isRecord(artifact) ? artifact[field] : undefined;
  return Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
}

export function diffArtifacts(before: unknown, after: unknown): ArtifactDiff {
  const setting = (name: string) => (isRecord(before) ? before[name] : undefined);
  const settings = SETTINGS.map((field) => ({
    field,
    before: setting(field),
    after: isRecord(after) ? after[field] : undefined,
  })).filter((change) => canonical(change.before) !== canonical(change.after));

  const oldConditions = stringsOf(before, 'conditions');
  const newConditions = stringsOf(after, 'conditions');

  const keptIn = (artifact: unknown, other: unknown) => {
    const otherIds = new Set(entitiesOf(other, 'rules').map((r) => r.id));
    return entitiesOf(artifact, 'rules')
      .map((r) => r.id)
      .filter((id) => otherIds.has(id));
  };

  return {
    settings,
    entities: diffEntities(before, after),
    conditions: {
      added: newConditions.filter((c) => !oldConditions.includes(c)),
      removed: oldConditions.filter((c) => !newConditions.includes(c)),
    },
    ruleOrderChanged: keptIn(before, after).join('\n') !== keptIn(after, before).join('\n'),
  };
}

export function isUnchanged(diff: ArtifactDiff): boolean {
  return (
    diff.settings.length === 0 &&
    diff.entities.length === 0 &&
    diff.conditions.added.length === 0 &&
    diff.conditions.removed.length === 0 &&
    !diff.ruleOrderChanged
  );
}

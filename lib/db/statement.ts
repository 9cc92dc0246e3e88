/**
 * Column maps and statements with named parameters, for the SQL a store writes by hand.
 *
 * A `Table` maps a row type's fields to its columns once; the INSERT, the SELECT list and the
 * `json_build_object` of that table are all built from the map, so adding a column is one line.
 * A `Statement` numbers its parameters while its text is built (once, at module load): the text
 * stays constant, so it is prepared once per connection, and its values are read by name from
 * the rows it is given: no hand-numbered `$17` to keep in step with a list of values.
 */

/** A column's type as written in a cast: `$1::uuid`. Quoted names are enum types. */
export type ColumnType =
  | 'uuid'
  | 'text'
  | 'text[]'
  | 'int'
  | 'bigint'
  | 'boolean'
  | 'json'
  | 'jsonb'
  | 'timestamptz'
  | `"${string}"`;

export type Columns<Row> = { readonly [K in keyof Row]-?: readonly [column: string, type: ColumnType] };

/** Values read back as text so that both pg and Prisma's raw queries return strings. */
const readAsText = (type: ColumnType) => type === 'uuid' || type.startsWith('"');

export class Table<Row> {
  readonly fields: (keyof Row & string)[];

  constructor(
    readonly name: string,
    readonly columns: Columns<Row>,
  ) {
    this.fields = Object.keys(columns) as (keyof Row & string)[];
  }

  /** `alias.column AS "field", …` for a SELECT (ids and enums as text). */
  selectList(alias: string, fields: readonly (keyof Row & string)[] = this.fields): string {
    return fields
      .map((field) => {
        const [column, type] = this.columns[field];
        return `${alias}.${column}${readAsText(type) ? '::text' : ''} AS "${field}"`;
      })
      .join(', ');
  }

  /** `json_build_object('field', alias.column, …)`: a whole row as one value of a SELECT. */
  jsonObject(alias: string, fields: readonly (keyof Row & string)[] = this.fields): string {
    return `json_build_object(${fields.map((field) => `'${field}', ${alias}.${this.columns[field][0]}`).join(', ')})`;
  }

  /** A row as `jsonObject` returns it: timestamps come back as text and become Dates again. */
  fromJson(json: Record<string, unknown>): Row {
    const row: Record<string, unknown> = { ...json };
    for (const field of this.fields) {
      if (this.columns[field][1] === 'timestamptz' && typeof row[field] === 'string') row[field] = new Date(row[field]);
    }
    return row as Row;
  }
}

type Slot = { group: string; field: string; type: ColumnType };

/** What a statement's text is built with: parameters by name, and inserts from column maps. */
export type StatementBuilder<Bindings> = {
  /** `$n::type` for `bindings[group][field]`; the same name gives the same parameter. */
  param<G extends keyof Bindings & string>(group: G, field: keyof Bindings[G] & string, type: ColumnType): string;
  /**
   * `INSERT INTO table (columns) SELECT $a::t, … [FROM from]` of the row bound as `group`;
   * `from` makes the insert conditional on that relation having a row.
   */
  insert<G extends keyof Bindings & string>(table: Table<Bindings[G]>, group: G, options?: { from?: string }): string;
};

/** A value as PostgreSQL is sent it: JSON columns as text, null and undefined as NULL. */
function sentValue(value: unknown, type: ColumnType): unknown {
  if (value === undefined || value === null) return null;
  return type === 'json' || type === 'jsonb' ? JSON.stringify(value) : value;
}

/** Numbers the parameters of a statement while its text is built; `reference` writes the n-th. */
function buildText<Bindings>(slots: Slot[], reference: (index: number, type: ColumnType) => string, build: (sql: StatementBuilder<Bindings>) => string) {
  const param = (group: string, field: string, type: ColumnType) => {
    let index = slots.findIndex((slot) => slot.group === group && slot.field === field && slot.type === type);
    if (index < 0) index = slots.push({ group, field, type }) - 1;
    return reference(index, type);
  };
  const insert = (table: Table<object>, group: string, options: { from?: string } = {}) => {
    const columns = table.fields.map((field) => table.columns[field as never][0]).join(', ');
    const values = table.fields.map((field) => param(group, field, table.columns[field as never][1])).join(', ');
    return `INSERT INTO ${table.name} (${columns}) SELECT ${values}${options.from ? ` FROM ${options.from}` : ''}`;
  };
  return build({ param, insert } as unknown as StatementBuilder<Bindings>);
}

export class Statement<Bindings extends Record<string, object>> {
  readonly text: string;
  private readonly slots: Slot[] = [];

  constructor(build: (sql: StatementBuilder<Bindings>) => string) {
    this.text = buildText(this.slots, (index, type) => `$${index + 1}::${type}`, build);
  }

  /** The parameter values, in the statement's order, read from the bound rows. */
  values(bindings: Bindings): unknown[] {
    const values = new Array<unknown>(this.slots.length);
    for (let i = 0; i < this.slots.length; i++) {
      const { group, field, type } = this.slots[i];
      values[i] = sentValue((bindings[group] as Record<string, unknown>)[field], type);
    }
    return values;
  }
}

/**
 * A bound value as JSON; NULL for what JSON cannot hold (JSON.stringify gives undefined), as for
 * null and undefined. A Date is written as JSON.stringify writes it, without its toJSON call:
 * the slow path of JSON.stringify, and five of a quote's row are dates (~2 µs each).
 */
function jsonOf(value: unknown): string {
  if (value == null) return 'null';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'null' : `"${value.toISOString()}"`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * A statement over several rows of bindings at once. Each parameter is a column of the relation
 * `input` (alias `i`; its position in the batch is `i.n`, from 1), read from one JSON parameter
 * by json_to_recordset: the text is the same whatever the batch's size, so it is prepared once
 * per connection, and PostgreSQL plans it once too. (An `unnest` of array parameters shows a
 * custom plan each batch's size, so PostgreSQL kept planning it anew: 0.9 ms per call.) The
 * builder's text follows `WITH input AS (…),`: it starts with its own CTEs, and says which rows
 * of `input` it reads (`sql.insert`'s `from` names `input i` itself).
 */
export class BatchStatement<Bindings extends Record<string, object>> {
  readonly text: string;
  private readonly slots: Slot[] = [];
  /** `,"p1":`, `,"p2":`, …: each column's key in a row's JSON. */
  private readonly keys: string[];

  constructor(build: (sql: StatementBuilder<Bindings>) => string) {
    const body = buildText(this.slots, (index) => `i.p${index + 1}`, build);
    const columns = this.slots.map(({ type }, index) => `p${index + 1} ${type}`);
    this.keys = this.slots.map((_, index) => `,"p${index + 1}":`);
    this.text = `WITH input AS (
       SELECT * FROM json_to_recordset($1::json) AS i(n int, ${columns.join(', ')})
     ), ${body}`;
  }

  /**
   * One row's fields, `,"p1":…,"p2":…` (JSON columns as values), without its position: a writer
   * that batches makes it while the row waits, not while the batch before it is done and the
   * database waits for this one. Written field by field: an object of forty computed keys per row
   * is a slow one for V8 to build and to stringify (a quote's batch spent 8% of the profiled
   * server's CPU there).
   */
  row(bindings: Bindings): SerializedRow {
    let text = '';
    for (let index = 0; index < this.slots.length; index++) {
      const { group, field } = this.slots[index];
      text += `${this.keys[index]}${jsonOf((bindings[group] as Record<string, unknown>)[field])}`;
    }
    return text as SerializedRow;
  }

  /** The one parameter: the rows made by `row` as JSON objects `{ n, p1, p2, … }`, numbered in the order given. */
  valuesOf(rows: readonly SerializedRow[]): [string] {
    let text = '[';
    for (let k = 0; k < rows.length; k++) text += `${k === 0 ? '' : ','}{"n":${k + 1}${rows[k]}}`;
    return [`${text}]`];
  }
}

/** A row's fields in a batch's parameter (`BatchStatement.row`). */
export type SerializedRow = string & { readonly __serializedRow: true };

/**
 * Column maps and statements with named parameters, for the SQL a store writes by hand.
 *
 * A `Table` maps a row type's fields to its columns once; the INSERT, the SELECT list and the
 * `json_build_object` of that table are all built from the map, so adding a column is one line.
 * A `Statement` numbers its parameters while its text is built (once, at module load): the text
 * stays constant, so it is prepared once per connection, and its values are read by name from
 * the rows it is given. Nobody writes `$17` by hand.
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

export class Statement<Bindings extends Record<string, object>> {
  readonly text: string;
  private readonly slots: Slot[] = [];

  constructor(build: (sql: StatementBuilder<Bindings>) => string) {
    const param = (group: string, field: string, type: ColumnType) => {
      let index = this.slots.findIndex((slot) => slot.group === group && slot.field === field && slot.type === type);
      if (index < 0) index = this.slots.push({ group, field, type }) - 1;
      return `$${index + 1}::${type}`;
    };
    const insert = (table: Table<object>, group: string, options: { from?: string } = {}) => {
      const columns = table.fields.map((field) => table.columns[field as never][0]).join(', ');
      const values = table.fields.map((field) => param(group, field, table.columns[field as never][1])).join(', ');
      return `INSERT INTO ${table.name} (${columns}) SELECT ${values}${options.from ? ` FROM ${options.from}` : ''}`;
    };
    this.text = build({ param, insert } as unknown as StatementBuilder<Bindings>);
  }

  /** The parameter values, in the statement's order, read from the bound rows. */
  values(bindings: Bindings): unknown[] {
    const values = new Array<unknown>(this.slots.length);
    for (let i = 0; i < this.slots.length; i++) {
      const { group, field, type } = this.slots[i];
      const value = (bindings[group] as Record<string, unknown>)[field];
      values[i] = value === undefined || value === null ? null : type === 'json' || type === 'jsonb' ? JSON.stringify(value) : value;
    }
    return values;
  }
}

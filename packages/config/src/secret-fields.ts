/** Marks secret fields in a schema another package defines (no imports: `schema.ts` uses it while it builds the schema). */
type Schema = Record<string, unknown>;

/** `schema` with `writeOnly: true` on every property named in `fields`, at any depth (for schemas other packages define). */
export function withSecretFields<T>(schema: T, fields: readonly string[]): T {
  const mark = (node: unknown, secret: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => mark(item, false));
    if (!isSchemaObject(node)) return node;
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] =
        key === 'properties' && isSchemaObject(value)
          ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, mark(sub, fields.includes(name))]))
          : mark(value, false);
    }
    return secret ? { ...out, writeOnly: true } : out;
  };
  return mark(schema, false) as T;
}

export function isSchemaObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Values a caller hands a tool that no log keeps: strings at the `writeOnly: true` positions of the tool's input
 * schema (JSON Schema's own annotation for "sent, never shown back"; `sessions_spawn` marks its attachments' `content`
 * so). The telemetry plugin collects them per run as calls start and replaces them in everything it records for that
 * run, whatever the shape: a plugin's event that copies a call's arguments (an approval's request) loses them too.
 */

/** Adds the strings found at `writeOnly` positions of `schema` in `value` to `out`. */
export function collectWriteOnly(schema: unknown, value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 32 || typeof schema !== 'object' || schema === null || value === undefined || value === null) return;
  const node = schema as Record<string, unknown>;
  if (node.writeOnly === true) return void strings(value, out, depth);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(node[key]))
      for (const branch of node[key] as unknown[]) collectWriteOnly(branch, value, out, depth + 1);
  }
  if (Array.isArray(value)) {
    const items = node.items;
    value.forEach((item, index) => collectWriteOnly(Array.isArray(items) ? items[index] : items, item, out, depth + 1));
    return;
  }
  if (typeof value !== 'object') return;
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    collectWriteOnly(
      Object.hasOwn(properties, key) ? properties[key] : node.additionalProperties,
      item,
      out,
      depth + 1,
    );
  }
}

/** `value` with every secret replaced: a string equal to one, or (for secrets of 8 characters or more) holding one. */
export function redact<T>(value: T, secrets: ReadonlySet<string>): T {
  if (!secrets.size) return value;
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  const scrub = (text: string): string => {
    let out = text;
    for (const secret of ordered) {
      if (out === secret) return mark(secret);
      if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join(mark(secret));
    }
    return out;
  };
  const walk = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') return scrub(item);
    if (typeof item !== 'object' || item === null) return item;
    // Deeper than any entry this plugin writes: not walked further, and never let through holding a secret.
    if (depth > MAX_DEPTH) return holdsSecret(item, ordered) ? TOO_DEEP : item;
    if (Array.isArray(item)) return item.map((entry) => walk(entry, depth + 1));
    return Object.fromEntries(Object.entries(item).map(([key, entry]) => [key, walk(entry, depth + 1)]));
  };
  return walk(value, 0) as T;
}

const MAX_DEPTH = 64;
const TOO_DEEP = '[redacted: nested too deep to scrub]';

/** Whether `item` (nested past MAX_DEPTH) holds a secret anywhere: read as text, which has no depth to overflow. */
function holdsSecret(item: object, secrets: readonly string[]): boolean {
  let text: string;
  try {
    text = JSON.stringify(item);
  } catch {
    return true; // cannot be read (a cycle, a BigInt): cannot be shown safe
  }
  return secrets.some((secret) => text.includes(JSON.stringify(secret).slice(1, -1)));
}

function mark(secret: string): string {
  return `[redacted: ${secret.length} characters]`;
}

function strings(value: unknown, out: Set<string>, depth: number): void {
  if (depth > 64) return;
  if (typeof value === 'string') {
    if (value) out.add(value);
  } else if (Array.isArray(value)) for (const item of value) strings(item, out, depth + 1);
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) strings(item, out, depth + 1);
}

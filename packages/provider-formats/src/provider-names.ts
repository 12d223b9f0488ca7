/**
 * Provider tool names must match `^[a-zA-Z0-9_-]{1,64}$`; MCP and client names
 * may not. Valid names keep themselves; others get a sanitized prefix plus a
 * hash of the original, so the mapping is deterministic, collision-free and
 * reversible.
 */
export const PROVIDER_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ProviderNameMap {
  toProvider(name: string): string;
  fromProvider(providerName: string): string | undefined;
}

export function createProviderNameMap(names: readonly string[]): ProviderNameMap {
  const forward = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) {
    if (PROVIDER_NAME_PATTERN.test(name) && !taken.has(name)) {
      forward.set(name, name);
      taken.add(name);
    }
  }
  for (const name of names) {
    if (forward.has(name)) continue;
    const base = name.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 54) || 'tool';
    let candidate = `${base}_${fnv1a(name)}`;
    for (let salt = 1; taken.has(candidate); salt++) candidate = `${base}_${fnv1a(`${name}#${salt}`)}`;
    forward.set(name, candidate);
    taken.add(candidate);
  }
  const backward = new Map([...forward].map(([name, providerName]) => [providerName, name]));
  return {
    toProvider: (name) => forward.get(name) ?? name,
    fromProvider: (providerName) => backward.get(providerName),
  };
}

/** 32-bit FNV-1a as 8 hex characters. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

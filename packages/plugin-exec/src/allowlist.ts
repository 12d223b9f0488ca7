/**
 * Allowlist entries: a bare name (`git`) matches an executable written as
 * that bare name (found on PATH); an entry with a `/` (`/usr/bin/git`,
 * `/opt/tools/*`) matches the executable's resolved path — a bare name looked
 * up on the exec PATH, a path resolved against the working folder. So
 * `./git` never passes as `git`.
 */
import { accessSync, constants } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export function allowlistMatch(
  executable: string,
  entries: readonly string[],
  options: { cwd: string; path: string },
): string | undefined {
  const bare = !executable.includes('/');
  const resolved = bare ? lookup(executable, options.path) : resolve(options.cwd, executable);
  for (const entry of entries) {
    if (!entry.includes('/')) {
      if (bare && entry === executable) return entry;
    } else if (resolved !== undefined && isAbsolute(entry) && globMatch(entry, resolved)) {
      return entry;
    }
  }
  return undefined;
}

/** The first executable file named `name` on `path`. */
function lookup(name: string, path: string): string | undefined {
  for (const dir of path.split(':').filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

/** `*` matches within one path segment; everything else is literal. */
function globMatch(pattern: string, value: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${source}$`).test(value);
}

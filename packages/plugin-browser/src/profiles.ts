/**
 * Browser profiles: the default one, the ones `browser.profiles` declares and the ones `create-profile` added
 * (kept in `<stateDir>/profiles.json`). A local profile has its own user-data folder and a CDP port number in
 * 18800-18899 (OpenClaw's key; nothing listens on it: the browser is driven over a pipe); a remote one is a `cdpUrl`
 * to attach to (attach-only).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolSearchError } from '@tool-search/kernel';
import { BrowserErrors } from './errors.js';
import { CDP_PORT_RANGE, PROFILE_NAME, type BrowserProfileConfig } from './options.js';

export type Profile =
  | {
      readonly name: string;
      readonly kind: 'local';
      readonly cdpPort: number;
      readonly color?: string;
      readonly origin: ProfileOrigin;
    }
  | {
      readonly name: string;
      readonly kind: 'remote';
      readonly cdpUrl: string;
      readonly color?: string;
      readonly origin: ProfileOrigin;
    };

/** `builtin`: `openclaw`, OpenClaw's isolated managed profile, always there (also when it is not the default). */
export type ProfileOrigin = 'default' | 'builtin' | 'config' | 'created';

/** The managed profile OpenClaw always has, besides the default one. */
export const BUILTIN_PROFILE = 'openclaw';

export class ProfileStore {
  readonly #file: string;
  readonly #configured: Map<string, Profile>;
  #created: Map<string, Profile>;

  constructor(
    readonly stateDir: string,
    readonly defaultName: string,
    configured: Readonly<Record<string, BrowserProfileConfig>> = {},
  ) {
    this.#file = join(stateDir, 'profiles.json');
    this.#configured = new Map();
    this.#created = new Map();
    const fixed: (readonly [string, BrowserProfileConfig, ProfileOrigin])[] = [
      [defaultName, configured[defaultName] ?? {}, 'default'],
      ...(configured[BUILTIN_PROFILE] || defaultName === BUILTIN_PROFILE
        ? []
        : [[BUILTIN_PROFILE, {}, 'builtin'] as const]),
      ...Object.entries(configured)
        .filter(([name]) => name !== defaultName)
        .map(([name, entry]) => [name, entry, 'config'] as const),
    ];
    const stored = Object.entries(this.#read())
      .filter(([name]) => PROFILE_NAME.test(name) && !fixed.some(([taken]) => taken === name))
      .map(([name, entry]) => [name, entry, 'created'] as const);
    // Ports a profile names are taken before any is assigned, so an assigned port never collides with them.
    const made = new Map<string, Profile>();
    const all = [...fixed, ...stored];
    for (const [name, entry, origin] of [
      ...all.filter(([, e]) => !needsPort(e)),
      ...all.filter(([, e]) => needsPort(e)),
    ]) {
      try {
        made.set(
          name,
          toProfile(name, entry, origin, () => this.#freePort(made)),
        );
      } catch (error) {
        if (origin !== 'builtin') throw error; // every port taken (100 profiles of the user's): the built-in one yields
      }
    }
    // Listed in order: the default, the built-in one, the config's, the created ones.
    for (const [name] of fixed) if (made.has(name)) this.#configured.set(name, made.get(name)!);
    for (const [name] of stored) this.#created.set(name, made.get(name)!);
  }

  list(): Profile[] {
    return [...this.#configured.values(), ...this.#created.values()];
  }

  get(name: string): Profile {
    checkName(name);
    const profile = this.#configured.get(name) ?? this.#created.get(name);
    if (!profile)
      throw new ToolSearchError(
        BrowserErrors.BROWSER_PROFILE_UNKNOWN,
        `no browser profile named "${name}"; known: ${this.list()
          .map((p) => p.name)
          .join(', ')}`,
        { details: { profile: name } },
      );
    return profile;
  }

  userDataDir(name: string): string {
    return join(this.stateDir, 'profiles', name, 'user-data');
  }

  create(name: string, entry: { cdpUrl?: string; color?: string }): Profile {
    checkName(name);
    if (this.#configured.has(name) || this.#created.has(name))
      throw new ToolSearchError(
        BrowserErrors.BROWSER_PROFILE_EXISTS,
        `a browser profile named "${name}" exists already`,
        { details: { profile: name } },
      );
    if (entry.cdpUrl !== undefined && !/^(https?|wss?):\/\//.test(entry.cdpUrl)) {
      throw new ToolSearchError(
        BrowserErrors.BROWSER_ARGUMENTS_INVALID,
        `cdpUrl must be an http(s) or ws(s) URL, got ${JSON.stringify(entry.cdpUrl.slice(0, 200))}`,
        { details: { cdpUrl: entry.cdpUrl.slice(0, 200) } },
      );
    }
    const profile = toProfile(name, entry, 'created', () => this.#freePort());
    this.#created.set(name, profile);
    this.#write();
    return profile;
  }

  /** Throws (BROWSER_PROFILE_UNKNOWN / _PROTECTED) unless `delete` would remove this profile; changes nothing. */
  checkDeletable(name: string): Profile {
    const profile = this.get(name);
    if (profile.origin !== 'created') {
      throw new ToolSearchError(
        BrowserErrors.BROWSER_PROFILE_PROTECTED,
        `browser profile "${name}" ${PROTECTED_BECAUSE[profile.origin]} and cannot be deleted here`,
        { details: { profile: name, origin: profile.origin } },
      );
    }
    return profile;
  }

  /** Removes a created profile's entry (the caller stops it and removes its folder). */
  delete(name: string): Profile {
    const profile = this.checkDeletable(name);
    this.#created.delete(name);
    this.#write();
    return profile;
  }

  #freePort(pending: ReadonlyMap<string, Profile> = new Map()): number {
    const all = [...this.list(), ...pending.values()];
    const taken = new Set(all.flatMap((p) => (p.kind === 'local' ? [p.cdpPort] : [])));
    for (let port = CDP_PORT_RANGE.first; port <= CDP_PORT_RANGE.last; port++) if (!taken.has(port)) return port;
    throw new ToolSearchError(
      BrowserErrors.BROWSER_PORTS_EXHAUSTED,
      `every CDP port in ${CDP_PORT_RANGE.first}-${CDP_PORT_RANGE.last} is taken; delete a profile first`,
    );
  }

  #read(): Record<string, BrowserProfileConfig> {
    try {
      const parsed = JSON.parse(readFileSync(this.#file, 'utf8')) as {
        profiles?: Record<string, BrowserProfileConfig>;
      };
      return parsed.profiles && typeof parsed.profiles === 'object' ? parsed.profiles : {};
    } catch {
      return {};
    }
  }

  #write(): void {
    mkdirSync(this.stateDir, { recursive: true });
    const profiles = Object.fromEntries(
      [...this.#created.values()].map((p) => [
        p.name,
        p.kind === 'local'
          ? { cdpPort: p.cdpPort, ...(p.color ? { color: p.color } : {}) }
          : { cdpUrl: p.cdpUrl, ...(p.color ? { color: p.color } : {}) },
      ]),
    );
    const temp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ profiles }, null, 2)}\n`);
    renameSync(temp, this.#file);
  }
}

export function checkName(name: string): void {
  if (!PROFILE_NAME.test(name)) {
    throw new ToolSearchError(
      BrowserErrors.BROWSER_PROFILE_INVALID,
      `browser profile name ${JSON.stringify(name.slice(0, 80))} is not lowercase letters, digits and hyphens (at most 64, starting with a letter or digit)`,
      { details: { profile: name.slice(0, 80) } },
    );
  }
}

const PROTECTED_BECAUSE: Record<ProfileOrigin, string> = {
  default: 'is the default profile (browser.defaultProfile)',
  builtin: `is the built-in "${BUILTIN_PROFILE}" profile`,
  config: 'comes from browser.profiles in the config',
  created: 'was created',
};

function needsPort(entry: BrowserProfileConfig): boolean {
  return entry.cdpUrl === undefined && entry.cdpPort === undefined;
}

function toProfile(name: string, entry: BrowserProfileConfig, origin: ProfileOrigin, freePort: () => number): Profile {
  const color = entry.color ? { color: entry.color } : {};
  if (entry.cdpUrl) return { name, kind: 'remote', cdpUrl: entry.cdpUrl, origin, ...color };
  return { name, kind: 'local', cdpPort: entry.cdpPort ?? freePort(), origin, ...color };
}

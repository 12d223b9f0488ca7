/**
 * `sessions_spawn` attachments: files given inline (utf8 or base64) materialised for the child under
 * `<workspace>/.openclaw/attachments/<uuid>/` with a `.manifest.json`, within `tools.sessions_spawn.attachments`
 * limits. Names are plain file names: `..`, separators, absolute paths, control, bidi and line-separator characters
 * are refused. The folder is made new and held open through `@tool-search/workspace`'s fd-relative walk, and every
 * file is created in it exclusively, so a folder on the way swapped for a symlink cannot redirect a write outside.
 */
import { createHash, randomUUID } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { ConfigError, ToolSearchError, errorMessage } from '@tool-search/kernel';
import { createFolderInWorkspace, type NewFolder } from '@tool-search/workspace';
import { SessionsErrors } from './errors.js';

export interface AttachmentLimits {
  readonly enabled: boolean;
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
}

export const DEFAULT_ATTACHMENT_LIMITS: AttachmentLimits = {
  enabled: false,
  maxFiles: 50,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 5 * 1024 * 1024,
};

export interface AttachmentInput {
  readonly name: string;
  readonly content: string;
  readonly encoding?: 'utf8' | 'base64';
  readonly mimeType?: string;
}

export interface AttachmentReceipt {
  readonly count: number;
  readonly totalBytes: number;
  /** The folder, relative to the workspace (`.openclaw/attachments/<uuid>`). */
  readonly relDir: string;
  readonly files: readonly { name: string; bytes: number; sha256: string; mimeType?: string }[];
  /** `attachAs.mountPath`, the hint the caller gave (nothing is mounted there). */
  readonly mountPath?: string;
}

export const ATTACHMENT_SCHEMA = {
  type: 'array',
  maxItems: 1000,
  description:
    'Files for the sub-agent, written to .openclaw/attachments/<uuid>/ in the workspace (tools.sessions_spawn.attachments limits).',
  items: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 255, description: 'A plain file name (no folders).' },
      // writeOnly (JSON Schema's "sent, never shown back"): telemetry keeps the content out of every log it writes.
      content: { type: 'string', writeOnly: true, description: 'The file content.' },
      encoding: { type: 'string', enum: ['utf8', 'base64'], description: 'How content is written (default utf8).' },
      mimeType: { type: 'string', maxLength: 200 },
    },
    required: ['name', 'content'],
    additionalProperties: false,
  },
} as const;

/** `tools.sessions_spawn.attachments` (enabled, maxFiles, maxFileBytes, maxTotalBytes); other keys pass through. */
export function checkAttachmentLimits(value: unknown): AttachmentLimits {
  if (value === undefined) return DEFAULT_ATTACHMENT_LIMITS;
  const given = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...DEFAULT_ATTACHMENT_LIMITS };
  for (const key of ['maxFiles', 'maxFileBytes', 'maxTotalBytes'] as const) {
    const n = given[key];
    if (n === undefined) continue;
    if (!Number.isInteger(n) || (n as number) < 1)
      throw new ConfigError(
        `/tools/sessions_spawn/attachments/${key}`,
        'minimum',
        `tools.sessions_spawn.attachments.${key} must be a positive integer`,
        { details: { value: n } },
      );
    out[key] = n;
  }
  if (given.enabled !== undefined) {
    if (typeof given.enabled !== 'boolean')
      throw new ConfigError(
        '/tools/sessions_spawn/attachments/enabled',
        'type',
        'tools.sessions_spawn.attachments.enabled must be true or false',
        { details: { value: given.enabled } },
      );
    out.enabled = given.enabled;
  }
  return out as unknown as AttachmentLimits;
}

export async function materialize(
  workspace: string,
  inputs: readonly AttachmentInput[],
  limits: AttachmentLimits,
): Promise<AttachmentReceipt> {
  if (!limits.enabled)
    throw refused('attachments are off here: set tools.sessions_spawn.attachments.enabled to true', {
      rule: 'tools.sessions_spawn.attachments.enabled',
    });
  if (inputs.length > limits.maxFiles)
    throw refused(`${inputs.length} attachments, more than maxFiles ${limits.maxFiles}`, {
      rule: 'tools.sessions_spawn.attachments.maxFiles',
    });
  const seen = new Set<string>();
  const decoded = inputs.map((input) => {
    checkName(input.name);
    // Names that read alike are one name: `café` composed and decomposed, `A` and `a`, fullwidth and plain letters.
    const key = foldedName(input.name);
    if (seen.has(key))
      throw refused(`attachment name ${JSON.stringify(input.name)} is given twice`, { name: input.name });
    seen.add(key);
    const bytes = input.encoding === 'base64' ? decodeBase64(input) : Buffer.from(input.content, 'utf8');
    if (bytes.length > limits.maxFileBytes)
      throw refused(`${input.name} is ${bytes.length} bytes, more than maxFileBytes ${limits.maxFileBytes}`, {
        name: input.name,
        rule: 'tools.sessions_spawn.attachments.maxFileBytes',
      });
    return { input, bytes };
  });
  const totalBytes = decoded.reduce((sum, file) => sum + file.bytes.length, 0);
  if (totalBytes > limits.maxTotalBytes)
    throw refused(`attachments total ${totalBytes} bytes, more than maxTotalBytes ${limits.maxTotalBytes}`, {
      rule: 'tools.sessions_spawn.attachments.maxTotalBytes',
    });

  const folder = await newFolder(await realpath(workspace));
  try {
    const files = [];
    for (const { input, bytes } of decoded) {
      await create(folder, input.name, bytes);
      files.push({
        name: input.name,
        bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        ...(input.mimeType ? { mimeType: input.mimeType } : {}),
      });
    }
    const receipt: AttachmentReceipt = { count: files.length, totalBytes, relDir: folder.relative, files };
    const manifest = { ...receipt, createdAt: new Date().toISOString() };
    await create(folder, '.manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
    return receipt;
  } finally {
    await folder.close();
  }
}

/** A new `.openclaw/attachments/<uuid>` folder (0700), held open; a path on the way that leads out is refused. */
async function newFolder(root: string): Promise<NewFolder> {
  const relDir = `.openclaw/attachments/${randomUUID()}`;
  try {
    return await createFolderInWorkspace(root, relDir, 0o700);
  } catch (error) {
    throw new ToolSearchError(
      SessionsErrors.SESSIONS_ATTACHMENT_REFUSED,
      `cannot make ${relDir}: ${errorMessage(error)}; attachments are written only into folders of the workspace`,
      { cause: error, details: { path: relDir } },
    );
  }
}

/** Creates `name` exclusively (0600) in the held folder; a failure (the folder deleted meanwhile) keeps its cause. */
async function create(folder: NewFolder, name: string, content: string | Uint8Array): Promise<void> {
  try {
    await folder.createFile(name, content, 0o600);
  } catch (error) {
    throw new ToolSearchError(
      SessionsErrors.SESSIONS_ATTACHMENT_REFUSED,
      `cannot write ${folder.relative}/${name}: ${errorMessage(error)}`,
      { cause: error, details: { path: `${folder.relative}/${name}` } },
    );
  }
}

/**
 * Characters no attachment name may hold: controls (C0, DEL, C1), format characters (bidi embeddings, overrides and
 * isolates U+202A–U+202E and U+2066–U+2069, marks, zero-width characters, BOM), line and paragraph separators, and
 * lone surrogates. They hide or reorder what a name shows (`evil\u202Etxt.exe`) or break the lines it is shown in.
 */
const UNSAFE_NAME_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** File systems take names of at most 255 bytes: a longer one failed after the files before it were written. */
const MAX_NAME_BYTES = 255;

/** The name as a reader (or a case-insensitive file system) tells it apart: compatibility-composed, lower case. */
function foldedName(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

/**
 * A plain file name: not empty, `.` or `..`; no separators or unsafe characters; not the manifest's name; at most 255
 * bytes. Its folded form is held to the same rules: `a／b` (a fullwidth solidus) reads as a path.
 */
function checkName(name: string): void {
  if (Buffer.byteLength(name) > MAX_NAME_BYTES)
    throw refused(`attachment name is ${Buffer.byteLength(name)} bytes; file names hold at most ${MAX_NAME_BYTES}`, {
      name: name.slice(0, 64),
      rule: 'attachment-name-length',
    });
  const folded = foldedName(name);
  const unsafe = UNSAFE_NAME_CHARACTER.exec(name)?.[0];
  if (unsafe !== undefined)
    throw refused(
      `attachment name ${JSON.stringify(name)} holds ${codePoint(unsafe)}: control, bidi, invisible and line-separator characters are refused`,
      { name, rule: 'attachment-name-characters', character: codePoint(unsafe) },
    );
  if (!plainName(name) || !plainName(folded))
    throw refused(`attachment name ${JSON.stringify(name)} is not a plain file name (no folders, "..")`, {
      name,
      rule: 'attachment-name',
    });
}

function plainName(name: string): boolean {
  return !(
    name === '.' ||
    name === '..' ||
    name === '.manifest.json' ||
    /[/\\]/.test(name) ||
    name.trim() !== name ||
    !name
  );
}

function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function decodeBase64(input: AttachmentInput): Buffer {
  const text = input.content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0)
    throw refused(`${input.name}: content is not base64`, { name: input.name });
  return Buffer.from(text, 'base64');
}

function refused(message: string, details: Record<string, unknown>): ToolSearchError {
  return new ToolSearchError(SessionsErrors.SESSIONS_ATTACHMENT_REFUSED, message, { details });
}

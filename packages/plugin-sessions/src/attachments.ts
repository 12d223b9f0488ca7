/**
 * `sessions_spawn` attachments: files given inline (utf8 or base64) materialised for the child under
 * `<workspace>/.openclaw/attachments/<uuid>/` with a `.manifest.json`, within `tools.sessions_spawn.attachments`
 * limits. Names are plain file names: `..`, separators, absolute paths, NUL and a symlinked folder on the way are
 * refused, and every file is created exclusively in a folder made for this spawn, so nothing outside it is written.
 */
import { createHash, randomUUID } from 'node:crypto';
import { lstat, mkdir, realpath, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ConfigError, ToolSearchError } from '@tool-search/kernel';
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
    if (seen.has(input.name))
      throw refused(`attachment name ${JSON.stringify(input.name)} is given twice`, { name: input.name });
    seen.add(input.name);
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

  const root = await realpath(workspace);
  const base = await safeFolder(root, ['.openclaw', 'attachments']);
  const id = randomUUID();
  const dir = join(base, id);
  await mkdir(dir, { mode: 0o700 }); // new: fails if anything is already there
  const files = [];
  for (const { input, bytes } of decoded) {
    await writeFile(join(dir, input.name), bytes, { flag: 'wx', mode: 0o600 }); // exclusive: never through a link
    files.push({
      name: input.name,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      ...(input.mimeType ? { mimeType: input.mimeType } : {}),
    });
  }
  const relDir = relative(root, dir).split(sep).join('/');
  const receipt: AttachmentReceipt = { count: files.length, totalBytes, relDir, files };
  await writeFile(
    join(dir, '.manifest.json'),
    `${JSON.stringify({ ...receipt, createdAt: new Date().toISOString() }, null, 2)}\n`,
    { flag: 'wx', mode: 0o600 },
  );
  return receipt;
}

/** A plain file name: not empty, `.` or `..`; no separators, NUL or control characters; not the manifest's name. */
function checkName(name: string): void {
  if (
    name === '.' ||
    name === '..' ||
    name === '.manifest.json' ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters in a file name are what this refuses
    /[/\\\0\x01-\x1f]/.test(name) ||
    name.trim() !== name ||
    !name
  ) {
    throw refused(
      `attachment name ${JSON.stringify(name)} is not a plain file name (no folders, "..", NUL or control characters)`,
      { name },
    );
  }
}

function decodeBase64(input: AttachmentInput): Buffer {
  const text = input.content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0)
    throw refused(`${input.name}: content is not base64`, { name: input.name });
  return Buffer.from(text, 'base64');
}

/** `root/<parts…>`, created as real folders; a part that exists as a symlink (or not a folder) is refused. */
async function safeFolder(root: string, parts: readonly string[]): Promise<string> {
  let at = root;
  for (const part of parts) {
    at = join(at, part);
    const found = await lstat(at).catch(() => undefined); // not there: mkdir below creates it or reports why not
    if (!found) {
      await mkdir(at, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      const made = await lstat(at);
      if (!made.isDirectory() || made.isSymbolicLink())
        throw refused(`${relative(root, at)} is not a folder`, { path: relative(root, at) });
      continue;
    }
    if (found.isSymbolicLink() || !found.isDirectory())
      throw refused(
        `${relative(root, at)} is a symlink or not a folder: attachments are written only into real folders of the workspace`,
        { path: relative(root, at) },
      );
  }
  return at;
}

function refused(message: string, details: Record<string, unknown>): ToolSearchError {
  return new ToolSearchError(SessionsErrors.SESSIONS_ATTACHMENT_REFUSED, message, { details });
}

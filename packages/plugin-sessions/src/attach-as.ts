/**
 * `sessions_spawn` `attachAs: { mountPath }`, as OpenClaw has it: a hint where the child should look for its
 * attachments, not a mount. The files are written to `.openclaw/attachments/<uuid>/` in the workspace whatever it
 * says (nothing here mounts folders into a run), so the hint is checked, kept on the receipt and told to the child
 * beside the real folder.
 */
import { ToolSearchError } from '@tool-search/kernel';
import type { AttachmentReceipt } from './attachments.js';
import { SessionsErrors } from './errors.js';

/** OpenClaw's bounds for the hint: at most 1,024 bytes of letters, digits and `. _ - / :`. */
const MOUNT_PATH = /^[A-Za-z0-9._\-/:]+$/;
const MAX_MOUNT_PATH_BYTES = 1024;

export const ATTACH_AS_SCHEMA = {
  type: 'object',
  description:
    'Where the sub-agent should look for its attachments (a hint: they are written to .openclaw/attachments/<uuid>/).',
  properties: {
    mountPath: { type: 'string', maxLength: MAX_MOUNT_PATH_BYTES, description: 'The folder the hint names.' },
  },
  additionalProperties: false,
} as const;

/** The hint of `attachAs`, trimmed (undefined when absent or blank); a path OpenClaw would refuse is refused. */
export function checkMountPath(attachAs: unknown): string | undefined {
  const given = (attachAs as { mountPath?: unknown } | undefined)?.mountPath;
  if (typeof given !== 'string' || !given.trim()) return undefined;
  const mountPath = given.trim();
  if (Buffer.byteLength(mountPath) > MAX_MOUNT_PATH_BYTES || !MOUNT_PATH.test(mountPath)) {
    throw new ToolSearchError(
      SessionsErrors.SESSIONS_ATTACHMENT_REFUSED,
      'attachAs.mountPath may hold only letters, digits and . _ - / : (at most 1,024 bytes)',
      { details: { rule: 'attachAs.mountPath' } },
    );
  }
  return mountPath;
}

/** The receipt with the hint on it, when `attachAs` gives one. */
export function withMountPath(receipt: AttachmentReceipt, attachAs: unknown): AttachmentReceipt {
  const mountPath = checkMountPath(attachAs);
  return mountPath ? { ...receipt, mountPath } : receipt;
}

/** The line the child's task ends with: the real folder and names, and the hint it was given. */
export function attachmentNote(receipt: AttachmentReceipt): string {
  const names = receipt.files.map((f) => f.name).join(', ');
  const hint = receipt.mountPath
    ? `; attachAs.mountPath "${receipt.mountPath}" was asked for, but nothing is mounted: read them from ${receipt.relDir}`
    : '';
  return `[${receipt.count} attachment(s) in ${receipt.relDir}: ${names}${hint}]`;
}

/**
 * The four file tools as the model sees them: OpenClaw's names and exactly
 * its parameters (no extra knobs), each bound to one workspace.
 */
import type { JsonSchema, ToolDefinition } from '@tool-search/kernel';
import { readFile, rm, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { ToolSearchError } from '@tool-search/kernel';
import {
  openInWorkspace,
  removeInWorkspace,
  resolveInWorkspace,
  writeFileAtomic,
  writeInWorkspace,
  WorkspaceErrors,
} from '@tool-search/workspace';
import { editTool, readTool, readWhole, text, writeTool } from './files.js';
import { applyPatchOps, conflict, type PatchFiles } from './patch-apply.js';
import { parsePatch } from './patch-parse.js';

export interface FsToolSettings {
  readonly root: string;
  readonly applyPatch: { readonly enabled: boolean; readonly workspaceOnly: boolean };
}

const object = (properties: Record<string, unknown>, required: string[]): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const str = (description: string, minLength = 0) => ({
  type: 'string',
  description,
  ...(minLength ? { minLength } : {}),
});
const int = (description: string) => ({ type: 'integer', minimum: 1, description });

export function fsToolDefinitions(settings: FsToolSettings): ToolDefinition[] {
  const { root } = settings;
  const core = { source: 'core', owner: 'core' } as const;
  const tools: ToolDefinition[] = [
    {
      ...core,
      name: 'read',
      description: `Read a text file from the workspace. Returns its lines (up to 2000 per call); use offset (1-based first line) and limit to page through large files. Images (png, jpeg, gif, webp) come back as attachments.`,
      inputSchema: object(
        {
          path: str('Path of the file, relative to the workspace (or absolute inside it)', 1),
          offset: int('First line to return (1-based)'),
          limit: int('Maximum number of lines to return'),
        },
        ['path'],
      ),
      annotations: { readOnlyHint: true },
      execute: (args, ctx) => readTool(root, args as { path: string; offset?: number; limit?: number }, ctx.signal),
    },
    {
      ...core,
      name: 'write',
      description:
        'Create or overwrite a file in the workspace with the given content. Parent folders are created as needed; the file is replaced atomically.',
      inputSchema: object({ path: str('Path of the file to write', 1), content: str('Full new content of the file') }, [
        'path',
        'content',
      ]),
      annotations: { destructiveHint: true },
      execute: (args) => writeTool(root, args as { path: string; content: string }),
    },
    {
      ...core,
      name: 'edit',
      description:
        'Replace an exact span of text in a workspace file. oldText must occur exactly once; include enough surrounding lines to make it unique.',
      inputSchema: object(
        {
          path: str('Path of the file to edit', 1),
          oldText: str('Exact text to replace', 1),
          newText: str('Replacement text'),
        },
        ['path', 'oldText', 'newText'],
      ),
      annotations: { destructiveHint: true },
      execute: (args) => editTool(root, args as { path: string; oldText: string; newText: string }),
    },
  ];
  if (settings.applyPatch.enabled) tools.push(applyPatchDefinition(settings));
  return tools;
}

function applyPatchDefinition({ root, applyPatch }: FsToolSettings): ToolDefinition {
  const files = applyPatch.workspaceOnly ? workspaceFiles(root) : hostFiles(root);
  return {
    source: 'core',
    owner: 'core',
    name: 'apply_patch',
    description:
      'Apply a multi-file patch: "*** Begin Patch", then "*** Add File: <path>" (+ lines), "*** Delete File: <path>" or "*** Update File: <path>" ' +
      '(optional "*** Move to: <path>", then @@ chunks of " " context, "-" removed and "+" added lines; "*** End of File" anchors a chunk at the end), then "*** End Patch". ' +
      'Paths are relative to the workspace. All files change or none do.',
    inputSchema: object({ input: str('The full patch, from *** Begin Patch to *** End Patch', 1) }, ['input']),
    annotations: { destructiveHint: true },
    execute: async (args) => {
      const summary = await applyPatchOps(parsePatch(String(args.input)), files);
      const lines = [
        ...summary.added.map((p) => `A ${p}`),
        ...summary.modified.map((p) => `M ${p}`),
        ...summary.moved.map((m) => `R ${m.from} -> ${m.to}`),
        ...summary.deleted.map((p) => `D ${p}`),
      ];
      return text(`Applied patch:\n${lines.join('\n')}`);
    },
  };
}

/** Patch files inside the workspace: every read and write walks from the root without following a link out. */
function workspaceFiles(root: string): PatchFiles {
  return {
    key: (path) => resolveInWorkspace(root, path).relative || '.',
    async read(key) {
      const opened = await openInWorkspace(root, key).catch((error: unknown) => {
        if (ToolSearchError.isInstance(error) && error.code === WorkspaceErrors.FILE_NOT_FOUND)
          throw conflict(key, 'the path is not a regular file');
        throw error;
      });
      if (!opened) return null;
      try {
        return await readWhole(opened.handle, key);
      } finally {
        await opened.handle.close();
      }
    },
    write: async (key, content) => void (await writeInWorkspace(root, key, content)),
    remove: (key) => removeInWorkspace(root, key),
  };
}

/** Patch files anywhere (`tools.exec.applyPatch.workspaceOnly: false`): relative paths start at the workspace. */
function hostFiles(root: string): PatchFiles {
  return {
    key: (path) => (isAbsolute(path) ? resolve(path) : resolve(root, path)),
    async read(key) {
      const info = await stat(key).catch(() => undefined); // nothing there reads as null; any other failure surfaces from the write that follows
      if (!info) return null;
      if (!info.isFile()) throw conflict(key, 'the path is not a regular file');
      return readFile(key, 'utf8');
    },
    write: (key, content) => writeFileAtomic(key, content),
    remove: (key) => rm(key, { force: true }),
  };
}

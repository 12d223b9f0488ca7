/**
 * What `upload` hands Chromium: copies, never workspace paths. Chromium opens a path it is given when the page reads
 * the file, long after any check; a process in the workspace that swaps the file (or a folder above it) for a symlink
 * in between would have it read a file from outside. So each file is opened once through `@tool-search/workspace`'s
 * fd-relative walk (a swap cannot redirect it) and copied from that descriptor into a private folder (0700, ours
 * alone), and Chromium gets the copy. The copies live as long as the browser (a form may be sent later). When
 * Chromium runs as its own user, that user's group may read them (0750/0640, root-owned: it cannot change them).
 */
import { constants } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ToolSearchError } from '@tool-search/kernel';
import { openInWorkspace, workspaceRoot } from '@tool-search/workspace';
import { BrowserErrors } from './errors.js';
import type { BrowserUser } from './launcher.js';

export interface UploadCopy {
  /** The private copy Chromium reads. */
  readonly path: string;
  /** Workspace-relative path of the file it was copied from. */
  readonly relative: string;
}

/**
 * Bytes of copies one browser holds at most, all uploads together (they live until the browser closes). A sparse
 * file costs the workspace nothing, but its copy is written out: before this bound, a 1 TB sparse file filled the
 * disk of the host with zeros.
 */
export const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;
const COPY_CHUNK_BYTES = 1024 * 1024;

export class UploadCopies {
  #folder?: Promise<string>;
  #batch = 0;
  /** Bytes of the copies held now (charged as they are written, so copies made at once share the bound). */
  #held = 0;

  /** `reader`: the user Chromium runs as, when not this process's own. */
  constructor(readonly reader?: BrowserUser) {}

  /** Copies each workspace file into a fresh sub-folder (keeping its name, which the page sees). */
  async copy(workspace: string, inputs: readonly string[]): Promise<UploadCopy[]> {
    const root = workspaceRoot(workspace);
    const batch = await this.#folderIn(await this.#root(), String(++this.#batch));
    // Every copy settles before the call answers: none goes on writing (and charging) after a refusal.
    const settled = await Promise.allSettled(
      inputs.map(async (input, index) =>
        copyOne(root, input, await this.#folderIn(batch, String(index)), this.reader, this.#budget()),
      ),
    );
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((outcome) => (outcome as PromiseFulfilledResult<UploadCopy>).value);
  }

  /** Charges written bytes to `MAX_UPLOAD_BYTES` (or refuses them); `refund` gives back a copy that was removed. */
  #budget(): Budget {
    return {
      charge: (bytes, input) => {
        if (this.#held + bytes > MAX_UPLOAD_BYTES) throw tooLarge(input);
        this.#held += bytes;
      },
      refund: (bytes) => {
        this.#held -= bytes;
      },
    };
  }

  /** Removes every copy (the browser is gone). */
  async remove(): Promise<void> {
    const folder = this.#folder;
    this.#folder = undefined;
    this.#held = 0;
    const path = await folder?.catch(() => undefined); // a folder that was never made has nothing to remove
    if (path) await rm(path, { recursive: true, force: true });
  }

  #root(): Promise<string> {
    // mkdtemp makes the folder 0700: no other user can read the copies or place a link among them.
    return (this.#folder ??= mkdtemp(join(tmpdir(), 'tool-search-browser-upload-')).then(async (folder) => {
      await this.#share(folder);
      return folder;
    }));
  }

  async #folderIn(parent: string, name: string): Promise<string> {
    const folder = join(parent, name);
    await mkdir(folder, { mode: 0o700 });
    await this.#share(folder);
    return folder;
  }

  /** Lets the browser's group into a folder (read and pass only); no-op when Chromium runs as this process's user. */
  async #share(folder: string): Promise<void> {
    if (!this.reader) return;
    await chown(folder, process.getuid!(), this.reader.gid);
    await chmod(folder, 0o750);
  }
}

interface Budget {
  charge(bytes: number, input: string): void;
  refund(bytes: number): void;
}

async function copyOne(
  root: string,
  input: string,
  folder: string,
  reader: BrowserUser | undefined,
  budget: Budget,
): Promise<UploadCopy> {
  const opened = await openInWorkspace(root, input).catch((error: unknown) => {
    throw invalid(input, 'is not a file inside the workspace', error);
  });
  if (!opened) throw invalid(input, 'does not exist in the workspace');
  const path = join(folder, basename(opened.relative) || 'file');
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const target = await open(path, flags, 0o600).catch(async (error: unknown) => {
    await opened.handle.close();
    throw error;
  });
  let copied = 0;
  try {
    if (reader) {
      await target.chown(process.getuid!(), reader.gid);
      await target.chmod(0o640);
    }
    const { size } = await opened.handle.stat();
    budget.charge(size, input); // refused before a byte is written; released, then charged again as written
    budget.refund(size);
    const chunk = Buffer.allocUnsafe(COPY_CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await opened.handle.read(chunk, 0, chunk.length, copied);
      if (!bytesRead) break;
      budget.charge(bytesRead, input); // the file may grow while it is copied
      copied += bytesRead;
      await target.write(chunk, 0, bytesRead);
    }
  } catch (error) {
    budget.refund(copied);
    await rm(path, { force: true });
    throw error;
  } finally {
    await opened.handle.close();
    await target.close();
  }
  return { path, relative: opened.relative };
}

function tooLarge(input: string): ToolSearchError {
  return new ToolSearchError(
    BrowserErrors.BROWSER_UPLOAD_TOO_LARGE,
    `upload of ${JSON.stringify(input.slice(0, 200))} would hold more than ${MAX_UPLOAD_BYTES} bytes of copies for this browser; close it (action "stop") to free them`,
    { details: { path: input.slice(0, 200), maxBytes: MAX_UPLOAD_BYTES } },
  );
}

function invalid(input: string, why: string, cause?: unknown): ToolSearchError {
  return new ToolSearchError(
    BrowserErrors.BROWSER_UPLOAD_PATH_INVALID,
    `upload path ${JSON.stringify(input.slice(0, 200))} ${why}`,
    { details: { path: input.slice(0, 200) }, ...(cause === undefined ? {} : { cause }) },
  );
}

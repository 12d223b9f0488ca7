/**
 * What "catalog generation" means here until the kernel has shared generations (issue 42 item 2): this replica's
 * count of changes it saw in the set of tool ids a run started with, and when the last one happened.
 */
import { createHash } from 'node:crypto';
import type { ToolDescriptor } from '@tool-search/kernel';

export class CatalogWatch {
  generation = 0;
  size = 0;
  changedAt: number | undefined;
  private fingerprint: string | undefined;

  /** Records the catalog a run started with; a different set of ids is a new generation. */
  see(catalog: readonly ToolDescriptor[], now = Date.now()): void {
    const ids = catalog.map((tool) => tool.id).sort();
    const fingerprint = createHash('sha256').update(ids.join('\n')).digest('base64url');
    this.size = ids.length;
    if (fingerprint === this.fingerprint) return;
    this.fingerprint = fingerprint;
    this.generation++;
    this.changedAt = now;
  }
}

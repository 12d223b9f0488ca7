/**
 * The learned-ranking fixture (`@tool-search/plugin-learning`, the preset's default composition, `eval
 * --from-logs`): a small billing catalog where "archive the old invoices" finds `move_to_cold_storage` only sixth,
 * because five tools say "archive" and "invoice" louder, so a test can watch learning lift it.
 */
import type { KernelPlugin } from '@tool-search/kernel';

export const LEARNING_QUERY = 'archive the old invoices';
export const LEARNING_TARGET = 'plugin:billing:move_to_cold_storage';

const TOOLS: readonly [string, string][] = [
  ['archive_invoice', 'Archive one invoice by id.'],
  ['list_archived_invoices', 'List archived invoices, oldest first.'],
  ['invoice_archive_report', 'Report on the invoice archive: counts of old and new invoices.'],
  ['restore_archived_invoice', 'Restore an archived invoice.'],
  ['delete_old_invoices', 'Delete old invoices past retention.'],
  ['move_to_cold_storage', 'Move billing documents to cold storage (keeps them, cheaper, slower to read).'],
  ['send_receipt', 'Send a receipt to a customer by email.'],
  ['create_customer', 'Create a customer record.'],
  ['refund_payment', 'Refund a payment.'],
  ['export_ledger', 'Export the ledger as CSV.'],
];

/** The catalog as a plugin: ten `plugin:billing:*` tools, each answering `done`. */
export function learningCatalog(name = 'billing'): KernelPlugin {
  return {
    name,
    apply: ({ hooks }) =>
      hooks.listTools.tap((sink) =>
        sink.add(
          TOOLS.map(([tool, description]) => ({
            name: tool,
            source: 'plugin' as const,
            owner: 'billing',
            description,
            inputSchema: { type: 'object' },
            execute: () => ({ content: [{ type: 'text' as const, text: 'done' }] }),
          })),
        ),
      ),
  };
}

import type { ComponentChildren } from 'preact';

export function Status({ loading, error }: { loading?: boolean; error?: { code: string; message: string } | undefined }) {
  if (error) {
    return (
      <p class="error" role="alert">
        <strong>{error.code}</strong>: {error.message}
      </p>
    );
  }
  return loading ? (
    <p class="muted" role="status">
      Loading…
    </p>
  ) : null;
}

export function Badge({ kind, children }: { kind: string; children: ComponentChildren }) {
  return <span class={`badge ${kind}`}>{children}</span>;
}

export function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`;
}

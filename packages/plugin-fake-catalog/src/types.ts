/** What this package adds to the kernel's types, by declaration merging. */
declare module '@tool-search/kernel' {
  interface ToolMeta {
    /**
     * A fake of the demo (fake) catalog: it does nothing and answers a fixed test marker. Front ends mark such tools
     * (`tools list --json` `demo: true`, the inspect page's "fake" badge) so nobody takes one for a real tool.
     */
    readonly demo?: boolean;
  }
}

export {};

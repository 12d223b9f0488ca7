/** What this package adds to the kernel's types, by declaration merging. */
declare module '@tool-search/kernel' {
  interface RunRequest {
    /**
     * The text of the turn's last user message (the gateway sets it): directory mode ranks the catalog against it and
     * shows the few likely-needed tools with their schemas. The same for every request of a turn, so the set is too.
     */
    readonly turnText?: string;
  }
}

export {};

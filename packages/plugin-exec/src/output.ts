/**
 * A session's output, bounded: the newest MAX_SESSION_OUTPUT_CHARS characters
 * (stdout and stderr interleaved as they arrived) are kept, older ones
 * dropped and counted. Positions are absolute (characters ever written), so a
 * poll cursor survives the drop.
 */
export const MAX_SESSION_OUTPUT_CHARS = 200_000;
/** The most output one tool result carries (the tail); the rest stays readable with `process log`. */
export const MAX_RESULT_OUTPUT_CHARS = 20_000;

export class BoundedOutput {
  private kept = '';
  private dropped = 0;

  constructor(private readonly limit = MAX_SESSION_OUTPUT_CHARS) {}

  append(text: string): void {
    this.kept += text;
    if (this.kept.length > this.limit) {
      const cut = this.kept.length - this.limit;
      this.kept = this.kept.slice(cut);
      this.dropped += cut;
    }
  }

  /** Characters ever written. */
  get total(): number {
    return this.dropped + this.kept.length;
  }

  /** Characters dropped from the front. */
  get droppedChars(): number {
    return this.dropped;
  }

  /** Text written since absolute position `from` (what is still kept of it). */
  since(from: number): string {
    return this.kept.slice(Math.max(0, from - this.dropped));
  }

  text(): string {
    return this.kept;
  }
}

/** The last `max` characters of `text`, with a note when cut. */
export function tail(text: string, max = MAX_RESULT_OUTPUT_CHARS): string {
  return text.length <= max
    ? text
    : `[… ${text.length - max} earlier characters cut; see process log]\n${text.slice(-max)}`;
}

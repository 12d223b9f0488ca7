/**
 * The fixed held-out part of the mcp-catalog dev queries: every fifth query by
 * number (dq-005, dq-010, …, 40 of 200). Ranking changes are tuned on the rest
 * and this part is only reported, so a change that memorizes the tuning
 * queries shows up as a gap between the two.
 */
import type { EvalQuery } from './datasets.js';

export interface DevSplit {
  readonly tune: readonly EvalQuery[];
  readonly heldOut: readonly EvalQuery[];
}

export function isHeldOut(query: Pick<EvalQuery, 'id'>): boolean {
  const number = /(\d+)$/.exec(query.id);
  return number !== null && Number(number[1]) % 5 === 0;
}

export function splitDev(queries: readonly EvalQuery[]): DevSplit {
  return { tune: queries.filter((q) => !isHeldOut(q)), heldOut: queries.filter(isHeldOut) };
}

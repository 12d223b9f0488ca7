/**
 * Named stages for ordering taps. Correctness never depends on order (policy is
 * set logic, subset checks are per tap); stages only order presentation.
 */
export const STAGE = Object.freeze({
  /** Early: coarse policy (profiles, allow/deny). */
  POLICY: -100,
  DEFAULT: 0,
  /** Late: guards that should see the call after approvals (loop detection). */
  GUARD: 100,
  /** Last: decoration of the final exposure. */
  FINAL: 1000,
});

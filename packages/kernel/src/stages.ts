/**
 * Named stages for ordering taps. Correctness never depends on order (policy is
 * set logic, subset checks are per tap); stages only order presentation.
 */
export const STAGE = Object.freeze({
  /** Early: coarse policy (profiles, allow/deny). */
  POLICY: -100,
  /** Guards that stop runaway calls before anyone is asked (loop detection runs before approvals). */
  GUARD: -50,
  DEFAULT: 0,
  /** Last: decoration of the final exposure. */
  FINAL: 1000,
});

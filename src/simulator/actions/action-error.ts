/** An action that cannot be applied: invalid input, or a coin, network or symbol that does not exist. */
export class ActionError extends Error {
  override readonly name = 'ActionError';
  readonly problems: string[];
  /** Actions of the same request applied before this one failed (they stay applied). */
  readonly applied: number;

  constructor(problems: string[], applied = 0) {
    super(problems.join('; '));
    this.problems = problems;
    this.applied = applied;
  }
}

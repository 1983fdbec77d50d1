/** A scenario file that cannot be used; `problems` lists each as `FILE:LINE:COL: message`. */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
  readonly problems: string[];

  constructor(problems: string[]) {
    super(problems.join('\n'));
    this.problems = problems;
  }
}

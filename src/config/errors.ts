/** A config or rules file that did not validate: every problem, as FILE:LINE:COL: message. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

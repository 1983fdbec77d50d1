import { nextTurn } from './timer';

/** One step: some work, which may return further steps to run next (before anything added later). */
export type Step = () => Step[] | void;

/**
 * Runs steps in later turns of the event loop, one step per turn, in the order they were
 * added. A step that throws is reported and the rest go on.
 */
export class StepQueue {
  private readonly backlog: Step[] = [];
  private draining: Promise<void> | undefined;

  constructor(private readonly onError: (err: unknown) => void) {}

  add(steps: readonly Step[]): void {
    this.backlog.push(...steps);
    this.draining ??= (async () => {
      for (let step = this.backlog.shift(); step !== undefined; step = this.backlog.shift()) {
        await nextTurn();
        try {
          const more = step();
          if (more !== undefined) this.backlog.unshift(...more);
        } catch (err) {
          this.onError(err);
        }
      }
      this.draining = undefined;
    })();
  }

  /** Resolves once every step added so far has run. */
  settled(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }
}

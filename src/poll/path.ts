/**
 * The poll path after the fetch, one way: an input through `step`, the step's write, and the
 * write's outcome back through `step` as the next input (StoreFailing is decided there, like
 * any other alert). Nothing here decides; it holds the state between calls and hands on what
 * each step returned, in order.
 */
import type { Persist, Written } from './persist';
import type { PollState } from './state';
import { step, type StepInput, type StepResult, type Write } from './step';

/** A write of nothing: what waits from refused writes goes with it. */
export const NOTHING: Write = { changes: [], alerts: { set: [], removed: [] }, pending: [] };

export interface Decided {
  /** The inputs given to step: the input, then its write's outcome (and that one's), in order. */
  inputs: StepInput[];
  /** The input's result, then its write's outcome's (and that one's), in order. */
  results: StepResult[];
  /** Each write's outcome, by the result that wrote it (undefined: it wrote nothing). */
  writes: (Written | undefined)[];
}

export class PollPath {
  constructor(
    public state: PollState,
    private readonly persist: Persist,
  ) {}

  /** `mono`: the monotonic clock read with `now` (see step). */
  decide(input: StepInput, now: number, mono?: number): Decided {
    const inputs: StepInput[] = [];
    const results: StepResult[] = [];
    const writes: (Written | undefined)[] = [];
    let next: StepInput | undefined = input;
    // A write's outcome moves StoreFailing at most once (failing, or writable again), whose own
    // write's outcome then changes nothing: this ends within three steps.
    while (next !== undefined && results.length < 3) {
      const r = step(this.state, next, now, mono);
      inputs.push(next);
      this.state = r.state;
      results.push(r);
      next = undefined;
      // What earlier writes could not take goes with the next input, whether or not it writes.
      if (r.effects.write !== undefined || (results.length === 1 && this.persist.waiting)) {
        const written = this.persist.write(r.effects.write ?? NOTHING);
        writes.push(written);
        next = { type: 'written', exchange: input.exchange, error: written.error };
      } else writes.push(undefined);
    }
    return { inputs, results, writes };
  }
}

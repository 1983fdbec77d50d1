/**
 * A recording run through `step` again: each recorded input, at its recorded time, from the
 * state the recording began with, under the settings given (a replay's own configuration and
 * rules). No store, no clock, no network: the same recording and settings decide the same
 * steps, every time.
 *
 * An answer is read from its recorded bytes as the client read it (exchange/reread.ts), with
 * the dialect the configuration gives its exchange; a write's outcome, a failure and a drop are
 * the inputs they were. Where the recording begins a new run (the daemon restarted) or lost
 * something (a failed disk, a damaged or deleted segment), the replay goes on from the state
 * recorded there.
 */
import type { Dialect } from '../../exchange/dialect';
import { LastAnswers } from '../../exchange/last-answers';
import { rereadCoins, rereadTickers } from '../../exchange/reread';
import { errorMessage } from '../../lib/error-message';
import { configure, exchangeOf, type PollState, type StepSettings } from '../state';
import { step, type StepInput, type StepResult } from '../step';
import { stateFrom, type AnswerRecord, type WatchedExchange } from './format';
import { readRecording, RecordingError } from './reader';
import type { Segment } from './segments';
import type { AnswerText } from '../../exchange/watch-list';

export interface ReplayOptions {
  settings: StepSettings;
  /** The dialect the configuration reads an exchange with (undefined: the configuration does not name it). */
  dialectOf(exchange: string): Dialect | undefined;
  /** Told of what people reading the output should know (a restart, a segment cut short): standard error. */
  note?(text: string): void;
}

/** One step of the replay: its input, its time, and what step decided. */
export interface Replayed {
  at: number;
  input: StepInput;
  result: StepResult;
}

/** Each step of the recording in `dir`, in order. Throws RecordingError when `dir` is not a recording, or names an exchange the configuration does not read as it was recorded. */
export async function* replayRecording(dir: string, options: ReplayOptions): AsyncGenerator<Replayed> {
  const { settings, note = () => undefined } = options;
  let state: PollState | undefined;
  /** Per exchange, the client's last answers as the replay has them (so an unchanged answer reads as the client read it). */
  let last = new Map<string, LastAnswers>();
  /** The segment read before, when it was read to its end. */
  let whole: Segment | undefined;
  for await (const read of readRecording(dir)) {
    if (read.kind === 'end') {
      whole = read.complete ? read.segment : undefined;
      if (!read.complete) note(`${read.segment.file}: ${read.reason ?? 'not read to its end'}; the replay goes on from the state the next segment begins with`);
      continue;
    }
    const { record, segment } = read;
    if (record.t === 'state') {
      check(record.watched, options);
      const goesOn = state !== undefined && record.continues && whole !== undefined && whole.seq === segment.seq - 1;
      if (!goesOn) {
        if (state !== undefined) note(`${new Date(record.at).toISOString()}: ${record.continues ? 'after a gap in the recording' : 'the daemon started again'}; the replay goes on from the state recorded then`);
        state = stateFrom(record, settings);
        last = new Map();
      }
      continue;
    }
    if (state === undefined) throw new RecordingError(`${segment.file}: records before a state record`);
    if (record.t === 'reload') {
      check(record.watched, options);
      state = configure(state, settings);
      continue;
    }
    let input: StepInput;
    if (record.t === 'answer') input = answerInput(record, read.answers, state, last, options, note);
    else if (record.t === 'failure') input = { type: 'failure', exchange: record.exchange, endpoint: record.endpoint, error: record.error };
    else if (record.t === 'written') input = { type: 'written', exchange: record.exchange, error: record.error ?? undefined };
    else if (record.t === 'notices') input = { type: 'notices', exchange: record.exchange, source: record.source, read: record.read, options: { vanished: record.vanished } };
    else input = { type: 'drop', exchange: record.exchange };
    const result = step(state, input, record.at);
    state = result.state;
    yield { at: record.at, input, result };
  }
}

/** Every exchange watched is read by the configuration with the dialect it was recorded with. */
function check(watched: readonly WatchedExchange[], options: ReplayOptions): void {
  for (const { name, dialect } of watched) dialectFor(name, dialect, options);
}

function dialectFor(exchange: string, recorded: string, options: ReplayOptions): Dialect {
  const dialect = options.dialectOf(exchange);
  if (dialect === undefined) throw new RecordingError(`exchange "${exchange}" is in the recording but not in the configuration: replay with the configuration it was recorded with`);
  if (dialect.name !== recorded) throw new RecordingError(`exchange "${exchange}" was recorded speaking ${recorded}, the configuration says ${dialect.name}`);
  return dialect;
}

/** The answer as the client read it, from its bytes; one the dialect cannot read now is a failure of that poll (and a note). */
function answerInput(record: AnswerRecord, answers: AnswerText[], state: PollState, last: Map<string, LastAnswers>, options: ReplayOptions, note: (text: string) => void): StepInput {
  const { exchange, endpoint } = record;
  const dialect = dialectFor(exchange, record.dialect, options);
  let kept = last.get(exchange);
  if (kept === undefined) last.set(exchange, (kept = new LastAnswers()));
  const snapshot = exchangeOf(state, exchange).snapshot;
  const texts = { answers, ...(record.watch !== undefined && { watch: record.watch }) };
  try {
    if (endpoint === 'coins') return { type: 'answer', exchange, endpoint, answer: rereadCoins(texts, dialect, snapshot.coins, kept) };
    return { type: 'answer', exchange, endpoint, answer: rereadTickers(texts, dialect, snapshot.tickers, kept) };
  } catch (err) {
    const error = `${endpoint}: ${errorMessage(err)}`;
    note(`${new Date(record.at).toISOString()}: ${exchange}: a recorded answer that ${dialect.name} does not read now (${error}); replayed as a failed poll`);
    return { type: 'failure', exchange, endpoint, error };
  }
}

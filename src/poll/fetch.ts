/**
 * One poll of one endpoint, up to the input of `step`: the client's answer (the records it
 * decoded and those it set aside) or its failure, never an empty exchange. `previous` is the
 * part the exchange is known by now (a dialect reads a network it cannot read now at its last
 * known value).
 */
import type { AnswerTexts, ExchangeClient } from '../exchange/client';
import { ExchangeError } from '../exchange/errors';
import type { Endpoint, Snapshot } from '../snapshot/model';
import type { StepInput } from './step';

export interface Fetched {
  input: StepInput;
  /** Bytes received (0 for a failure). */
  bytes: number;
  /** The failure, when the poll failed. */
  failure?: ExchangeError;
  /** The bytes of the answer, for a recording (the buffers the client keeps of its last answers anyway: a reference, not a copy). */
  texts?: AnswerTexts;
}

/** Throws what is not an ExchangeError (a fault of spotwatch), and the abort of `signal`. */
export async function fetchInput(client: ExchangeClient, exchange: string, endpoint: Endpoint, symbols: readonly string[], previous: Snapshot, signal?: AbortSignal): Promise<Fetched> {
  try {
    if (endpoint === 'coins') {
      const { texts, ...answer } = await client.fetchCoins(signal, previous.coins);
      return { input: { type: 'answer', exchange, endpoint, answer }, bytes: answer.bytes, texts };
    }
    const { texts, ...answer } = await client.fetchTickers(symbols, signal, previous.tickers);
    return { input: { type: 'answer', exchange, endpoint, answer }, bytes: answer.bytes, texts };
  } catch (err) {
    if (signal?.aborted === true || !(err instanceof ExchangeError)) throw err;
    return { input: { type: 'failure', exchange, endpoint, error: err.message }, bytes: 0, failure: err };
  }
}

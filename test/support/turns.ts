/**
 * Runs `work` while counting the turns of the event loop that pass meanwhile (a setImmediate
 * chain): more than zero means the work let other callbacks in between its parts.
 */
export async function countTurns<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let counting = true;
  const tick = (): void => {
    turns += 1;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const result = await work();
    return { result, turns };
  } finally {
    counting = false;
  }
}

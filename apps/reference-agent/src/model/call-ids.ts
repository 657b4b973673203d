/** Call ids `call_1`, `call_2`, … that skip any id already taken in the session. */
export function createCallIdGenerator(taken: Set<string> = new Set()): {
  next(): string;
  taken: Set<string>;
} {
  let counter = 0;
  return {
    taken,
    next() {
      let id: string;
      do {
        counter += 1;
        id = `call_${counter}`;
      } while (taken.has(id));
      taken.add(id);
      return id;
    },
  };
}

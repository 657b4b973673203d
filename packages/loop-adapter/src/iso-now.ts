// The last ISO time made: calls within one millisecond share its string (made once).
let lastMs = Number.NaN;
let lastIso = '';

/** `new Date().toISOString()`, made once per millisecond (records and inputs stamp it per call). */
export function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastIso = new Date(now).toISOString();
    lastMs = now;
  }
  return lastIso;
}

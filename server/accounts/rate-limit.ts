// Sign-in attempts per key (an account's email, a client address) in a sliding window: past its limit an attempt is
// refused before the password is even checked. In memory, per instance.
export class AttemptLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(private readonly windowMs = 60_000) {}

  /** Records an attempt for every key; false when any key is already at its limit (nothing is recorded then). */
  allow(keys: { key: string; max: number }[], now = Date.now()): boolean {
    const recent = keys.map(({ key }) => (this.attempts.get(key) ?? []).filter((t) => now - t < this.windowMs));
    if (recent.some((times, i) => times.length >= keys[i]!.max)) return false;
    keys.forEach(({ key }, i) => this.attempts.set(key, [...recent[i]!, now]));
    if (this.attempts.size > 100_000) this.attempts.clear();
    return true;
  }
}

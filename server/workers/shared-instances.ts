// One instance per key for the whole process, counted: the first acquire() makes it, each caller gets a reference,
// and the last release() closes it. So services and tools started in one process (tests, the command line) share the
// costly things they start (the XSD worker, the rules pool) instead of compiling or parsing them again.
// Must not know what the instances are.

export interface SharedRef<T> {
  instance: T;
  /** Drops this reference (again: nothing); the last one closes the instance. */
  release(): Promise<void>;
}

export class SharedInstances<T> {
  private readonly held = new Map<string, { instance: T; refs: number }>();

  constructor(
    private readonly create: (key: string) => T,
    private readonly close: (instance: T) => Promise<void>,
  ) {}

  /** The instance for `key` (made now when there is none), with a reference to release. */
  acquire(key: string): SharedRef<T> {
    let entry = this.held.get(key);
    if (!entry) {
      entry = { instance: this.create(key), refs: 0 };
      this.held.set(key, entry);
    }
    entry.refs++;
    const mine = entry;
    let released = false;
    return {
      instance: mine.instance,
      release: async () => {
        if (released) return;
        released = true;
        mine.refs--;
        if (mine.refs === 0 && this.held.get(key) === mine) {
          this.held.delete(key);
          await this.close(mine.instance);
        }
      },
    };
  }
}

/**
 * Bounds how many expensive jobs (password hashes) run at once. Callers beyond `limit` wait in a
 * queue of at most `queueLimit`; past that, `run` refuses at once so a flood cannot pile up work.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limit: number,
    private readonly queueLimit: number,
  ) {}

  /** Runs the job, or returns `undefined` without running it when the queue is full. */
  async run<T>(job: () => Promise<T>): Promise<{ value: T } | undefined> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.queueLimit) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return { value: await job() };
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

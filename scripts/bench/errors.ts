/** A run that cannot go on for a reason the operator can fix; shown without a stack trace. */
export class BenchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BenchError';
  }
}

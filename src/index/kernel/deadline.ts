/** A pool task ran past its deadline (the server answers 503, the spec's "system busy"). */
export class DeadlineError extends Error {
  constructor() {
    super('deadline exceeded');
    this.name = 'DeadlineError';
  }
}

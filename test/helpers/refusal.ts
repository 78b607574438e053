import { RefrainError } from '../../src/errors.js';

/** The RefrainError `fn` throws (a test fails with "accepted" when it throws none). */
export function refusal(fn: () => unknown): RefrainError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RefrainError) return e;
    throw e;
  }
  throw new Error('accepted');
}

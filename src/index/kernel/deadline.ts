import { RefrainError } from '../../errors.js';

/** A pool task ran past its deadline: the server answers 503, the spec's "system busy" (service/pool.ts). */
export const pastDeadline = (): RefrainError => new RefrainError('deadline', 'deadline exceeded');

/** Growing typed arrays that hold a build's tables and scratch space. */

/** A copy of `a` at least `min` long (its length doubled until it is), the rest zero. */
export function grown<T extends Uint8Array<ArrayBuffer> | Uint32Array<ArrayBuffer>>(a: T, min = a.length + 1): T {
  let length = Math.max(1, a.length) * 2;
  while (length < min) length *= 2;
  const out = new (a.constructor as new (length: number) => T)(length);
  out.set(a);
  return out;
}

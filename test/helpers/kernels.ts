/**
 * The kernels an index test runs with: the TypeScript reference, and the native one (native-index/,
 * built by `npm ci` on every machine of the project). REFRAIN_NATIVE=0 leaves the native one out; else
 * an addon that does not load fails the test rather than skipping it.
 */
import { selectKernel, tsKernel, type EngineName, type Kernel } from '../../src/index/kernel/kernel.js';

export function testKernels(): { name: EngineName; kernel: Kernel }[] {
  const kernels: { name: EngineName; kernel: Kernel }[] = [{ name: 'ts', kernel: tsKernel }];
  if (process.env.REFRAIN_NATIVE === '0') return kernels;
  const native = selectKernel('native');
  if (!native.kernel) throw new Error(`the native kernel does not load (${native.why}): run npm run build:native, or set REFRAIN_NATIVE=0 to test without it`);
  kernels.push({ name: 'native', kernel: native.kernel });
  return kernels;
}

/** The native kernel, or undefined under REFRAIN_NATIVE=0 (testKernels fails when it should load and does not). */
export const nativeKernel = (): Kernel | undefined => testKernels().find((k) => k.name === 'native')?.kernel;

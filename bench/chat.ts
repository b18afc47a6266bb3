import type { BenchContext, Row } from './lib.js';
export async function chatBench(_ctx: BenchContext): Promise<Row[]> {
  return [];
}

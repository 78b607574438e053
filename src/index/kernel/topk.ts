/**
 * The k best of many scored items without sorting them all: a bounded min-heap, O(n log k).
 * Scores are compared first, then `tie` (lower wins) so results are deterministic.
 */
export class TopK {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];
  private readonly ties: number[] = [];

  constructor(private readonly k: number) {}

  get size(): number {
    return this.ids.length;
  }

  /** The score an item must beat to enter (−Infinity while the heap is not full). */
  get floor(): number {
    return this.ids.length < this.k ? -Infinity : this.scores[0];
  }

  push(id: number, score: number, tie = id): void {
    if (this.k <= 0) return;
    if (this.ids.length < this.k) {
      this.ids.push(id);
      this.scores.push(score);
      this.ties.push(tie);
      this.up(this.ids.length - 1);
    } else if (this.better(score, tie, 0)) {
      this.ids[0] = id;
      this.scores[0] = score;
      this.ties[0] = tie;
      this.down(0);
    }
  }

  /** Ids from best to worst. */
  sorted(): number[] {
    return this.entries().map((e) => e.id);
  }

  /** Ids with their scores, from best to worst. */
  entries(): { id: number; score: number }[] {
    const order = this.ids.map((_, i) => i);
    order.sort((a, b) => this.scores[b] - this.scores[a] || this.ties[a] - this.ties[b]);
    return order.map((i) => ({ id: this.ids[i], score: this.scores[i] }));
  }

  /** Whether (score, tie) ranks above the heap entry at i. */
  private better(score: number, tie: number, i: number): boolean {
    return score > this.scores[i] || (score === this.scores[i] && tie < this.ties[i]);
  }

  private swap(a: number, b: number): void {
    [this.ids[a], this.ids[b]] = [this.ids[b], this.ids[a]];
    [this.scores[a], this.scores[b]] = [this.scores[b], this.scores[a]];
    [this.ties[a], this.ties[b]] = [this.ties[b], this.ties[a]];
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.better(this.scores[parent], this.ties[parent], i)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < this.ids.length && this.better(this.scores[worst], this.ties[worst], l)) worst = l;
      if (r < this.ids.length && this.better(this.scores[worst], this.ties[worst], r)) worst = r;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }
}

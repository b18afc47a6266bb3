// Answers remembered in memory: `session` lasts the process (all threads), `once` the rest of one turn.
// Keys are directory + pattern, so an answer given for /a never covers /b.

export function approvalKey(directory: string, pattern: string): string {
  return `${directory}\0${pattern}`;
}

export class ApprovalCache {
  private readonly keys = new Set<string>();
  has(directory: string, pattern: string): boolean {
    return this.keys.has(approvalKey(directory, pattern));
  }
  add(directory: string, pattern: string): void {
    this.keys.add(approvalKey(directory, pattern));
  }
  list(): Array<{ directory: string; pattern: string }> {
    return [...this.keys].map((k) => {
      const [directory = '', pattern = ''] = k.split('\0');
      return { directory, pattern };
    });
  }
  delete(directory: string, pattern: string): boolean {
    return this.keys.delete(approvalKey(directory, pattern));
  }
  clear(): void {
    this.keys.clear();
  }
  get size(): number {
    return this.keys.size;
  }
}

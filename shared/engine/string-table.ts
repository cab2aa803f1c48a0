// Strings by small integer code, for the message store's columns: a column of codes is a typed array the garbage
// collector never scans, and a repeated string (a method, a version, a URI) is kept once however many messages name it.
// The last two strings looked up are remembered: consecutive messages often name the very same string (a read answer
// carries its request's URI string, a stream's notifications share its version), or alternate between two (a
// notification and the read it causes, two clients' versions), and comparing is cheaper than hashing.

export class StringTable {
  private codes = new Map<string, number>();
  private strings: string[] = [];
  private last: string | undefined = undefined;
  private lastCode = -1;
  private prev: string | undefined = undefined;
  private prevCode = -1;

  /** The code of `s` (added if new); -1 for undefined. */
  code(s: string | undefined): number {
    if (s === undefined) return -1;
    if (s === this.last) return this.lastCode;
    let c: number | undefined;
    if (s === this.prev) c = this.prevCode;
    else {
      c = this.codes.get(s);
      if (c === undefined) {
        c = this.strings.length;
        this.strings.push(s);
        this.codes.set(s, c);
      }
    }
    this.prev = this.last;
    this.prevCode = this.lastCode;
    this.last = s;
    this.lastCode = c;
    return c;
  }

  /** The string of a code; undefined for -1. */
  at(code: number): string | undefined {
    return code < 0 ? undefined : this.strings[code];
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';

/** Where a call runs: inside which transaction, and at which level of savepoints. */
interface Frame {
  readonly token: symbol;
  /** A nested transaction of this level is running: the next one waits for `idle`. */
  busy: boolean;
  idle: Promise<void>;
  /** The savepoint this level rolls back to (none for the outermost transaction). */
  readonly anchor: Anchor | undefined;
}

/**
 * A savepoint, and whether it is still clean (nothing written since it was taken). A nested
 * transaction that starts while its level's savepoint is clean takes none of its own: rolling back
 * to that one restores exactly the state it started from. Transactions nest three or four deep on
 * the booking path (a group commit's job, an Idempotency-Key's check, the use case), so sharing saves
 * a SAVEPOINT and a RELEASE per level. (SQLite copies a changed page into its statement journal once
 * for all the savepoints open at the time, so sharing saves those statements, not the copies.)
 */
export interface Anchor {
  /**
   * The connection's count of changed rows when the savepoint was taken or last rolled back to; it
   * is clean while the count has not moved, so reads leave it clean.
   */
  changes: number;
}

/**
 * One transaction at a time over one connection, and no outside statement while it is open.
 *
 * A transaction's work is asynchronous (it awaits the store), so the event loop may run other
 * requests' code before it commits. Calls made from inside the transaction carry its token
 * (AsyncLocalStorage follows awaits and the promises created under it); any other call waits
 * until the gate is open again. Waiters re-check after every release, because another waiting
 * transaction may have taken the gate first. Nested transactions (savepoints) of one level take
 * turns too, so work that starts several at once cannot interleave their savepoints.
 */
export class Gate {
  private readonly context = new AsyncLocalStorage<Frame>();
  private owner: symbol | undefined;
  private released: Promise<void> = Promise.resolve();

  /** `changes` counts the rows the connection has ever changed (SQLite's total_changes()). */
  constructor(private readonly changes: () => number) {}

  /** A transaction is open. */
  held(): boolean {
    return this.owner !== undefined;
  }

  /** A transaction is open and this call runs inside it. */
  heldHere(): boolean {
    return this.owner !== undefined && this.context.getStore()?.token === this.owner;
  }

  /** This call may use the connection now. */
  admits(): boolean {
    return this.owner === undefined || this.context.getStore()?.token === this.owner;
  }

  /** After rolling back to it: the anchor is clean again. */
  markClean(anchor: Anchor): void {
    anchor.changes = this.changes();
  }

  /** Resolves once this call may use the connection. */
  async whenOpen(): Promise<void> {
    while (!this.admits()) await this.released;
  }

  /** Runs `work` as the gate's holder: after the current holder, with every call inside it admitted. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    while (this.owner !== undefined) await this.released;
    const token = Symbol('transaction');
    this.owner = token;
    let release!: () => void;
    this.released = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      return await this.context.run(frameOf(token, undefined), work);
    } finally {
      this.owner = undefined;
      release();
    }
  }

  /**
   * Runs `work` one level deeper inside the held transaction, after the level's running nested work.
   * `work` is told the clean savepoint of the level above when it may share it (and then takes none
   * of its own), else undefined.
   */
  async nest<T>(work: (shared: Anchor | undefined) => Promise<T>): Promise<T> {
    const frame = this.context.getStore()!;
    while (frame.busy) await frame.idle;
    frame.busy = true;
    let done!: () => void;
    frame.idle = new Promise<void>((resolve) => {
      done = resolve;
    });
    const changes = this.changes();
    const shared = frame.anchor?.changes === changes ? frame.anchor : undefined;
    try {
      const anchor = shared ?? { changes };
      return await this.context.run(frameOf(frame.token, anchor), () => work(shared));
    } finally {
      frame.busy = false;
      done();
    }
  }
}

function frameOf(token: symbol, anchor: Anchor | undefined): Frame {
  return { token, busy: false, idle: Promise.resolve(), anchor };
}

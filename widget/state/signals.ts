/**
 * The widget's state lives in signals, a small implementation of the part of Preact's signals
 * (@preact/signals-core) the widget uses: `signal`, `computed`, `effect`, `batch`, `untracked` and
 * `peek`. Each mount re-renders inside one `effect`, so neither Preact's integration nor the rest
 * of the library is needed; this file is about a quarter of signals-core's bytes, which keeps
 * widget.js within its budget (size-budget.test.ts). signals.test.ts holds it to the library's
 * behaviour: an effect re-runs once per change (once per batch) of what its last run read, not
 * when a computed it read was recomputed to the same value; writes inside an effect wait for it
 * to end; a computed is recomputed only when read after a change.
 *
 * Property names are short: the minifier keeps them as written.
 */

export interface ReadonlySignal<T> {
  readonly value: T;
  /** The value without subscribing the effect or computed that is running. */
  peek(): T;
}

export interface Signal<T> extends ReadonlySignal<T> {
  value: T;
}

/** The computed or effect running now, which reading a node subscribes. */
let reading: Node<unknown> | undefined;
/** Batches open (an effect's run is one). */
let depth = 0;
/** Effects to run when the outermost batch ends, in the order they were told. */
const queued = new Set<Node<unknown>>();

/** A signal; a computed (`f` its function); an effect (`f`, and `e` set). */
class Node<T> implements Signal<T> {
  /** How many times the value changed. */
  n = 0;
  /** The computeds and effects whose last run read this. */
  s = new Set<Node<unknown>>();
  /** What this computed's or effect's last run read, each at its `n` then. */
  d = new Map<Node<unknown>, number>();
  /** A computed or effect that may be stale: something it read changed since its last run (or it never ran). */
  x = true;

  constructor(
    public v: T,
    public f?: () => T,
    public e?: boolean,
  ) {}

  get value(): T {
    this.r();
    if (reading) {
      reading.d.set(this, this.n);
      this.s.add(reading);
    }
    return this.v;
  }

  set value(v: T) {
    if (v !== this.v) {
      this.v = v;
      this.n++;
      batch(() => this.m());
    }
  }

  peek(): T {
    this.r();
    return this.v;
  }

  /** Tells what read this that it may be stale: effects are queued, computeds tell theirs. */
  m(): void {
    for (const sub of this.s) {
      if (!sub.x) {
        sub.x = true;
        if (sub.e) queued.add(sub);
        else sub.m();
      }
    }
  }

  /** Brings a stale computed or effect up to date: runs it again if something it read really changed. */
  r(): void {
    if (!this.f || !this.x) return;
    // A computed read before may have been recomputed to the same value: nothing changed then.
    if (this.d.size && [...this.d].every(([source, n]) => (source.r(), source.n === n))) return void (this.x = false);
    this.u();
    // Up to date even if it throws: it stays subscribed to what it read before, and runs again when that changes.
    this.x = false;
    const outer = reading;
    reading = this;
    try {
      const v = this.f();
      if (!this.e && v !== this.v) {
        this.v = v;
        this.n++;
      }
    } finally {
      reading = outer;
    }
  }

  /** Forgets what the last run read. */
  u(): void {
    for (const source of this.d.keys()) source.s.delete(this);
    this.d.clear();
  }
}

export function signal<T>(value: T): Signal<T> {
  return new Node(value);
}

export function computed<T>(fn: () => T): ReadonlySignal<T> {
  return new Node<T>(undefined as T, fn);
}

/** Runs `fn` now and again whenever what it read changes; the function returned stops it. */
export function effect(fn: () => unknown): () => void {
  const node = new Node<unknown>(undefined, fn, true);
  batch(() => node.r());
  return () => {
    node.u();
    node.f = undefined;
    queued.delete(node);
  };
}

/**
 * Runs `fn`, then the effects its writes concern, each once. An effect that throws does not keep
 * the others from running; the first error is thrown once they have.
 */
export function batch<T>(fn: () => T): T {
  depth++;
  try {
    return fn();
  } finally {
    const failed: unknown[] = [];
    // Effects queued while these run (their writes) join the loop.
    if (depth === 1) {
      for (const node of queued) {
        queued.delete(node);
        try {
          node.r();
        } catch (e) {
          failed.push(e);
        }
      }
    }
    depth--;
    if (failed.length) throw failed[0];
  }
}

/** Runs `fn` without subscribing the effect or computed that is running to what it reads. */
export function untracked<T>(fn: () => T): T {
  const outer = reading;
  reading = undefined;
  try {
    return fn();
  } finally {
    reading = outer;
  }
}

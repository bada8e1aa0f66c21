/**
 * Who made a change, as the activity log records it: a person signed in to the dashboard, an API
 * key, a guest (the public API and the manage page), the server itself (payments, lapsed holds), or
 * the command line.
 */
export type ActorType = 'user' | 'key' | 'guest' | 'system' | 'cli';

export interface Actor {
  type: ActorType;
  /** The user's or key's id; null for guests, the system and the CLI. */
  id: string | null;
  name: string;
  /** The client's address for changes that came over HTTP. */
  ip: string | null;
}

export const SYSTEM: Actor = { type: 'system', id: null, name: 'Outing', ip: null };
export const CLI: Actor = { type: 'cli', id: null, name: 'Command line', ip: null };
/** The guest acting on their own booking; a reseller's guest may have no name. */
export const guestActor = (name: string | null, ip: string | null): Actor => ({ type: 'guest', id: null, name: name ?? 'Guest', ip });

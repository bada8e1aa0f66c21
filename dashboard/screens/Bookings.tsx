import type { JSX } from 'preact';
import type { Model } from '../state/model.js';
import { Placeholder } from './Placeholder.js';

export const titleBookings = (m: Model): string => (void m, 'Bookings');

export function Bookings({ m }: { m: Model }): JSX.Element {
  return <Placeholder title={titleBookings(m)} />;
}

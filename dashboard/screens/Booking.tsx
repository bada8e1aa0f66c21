import type { JSX } from 'preact';
import type { Model } from '../state/model.js';
import { Placeholder } from './Placeholder.js';

export const titleBooking = (m: Model): string => (void m, 'Booking');

export function Booking({ m }: { m: Model }): JSX.Element {
  return <Placeholder title={titleBooking(m)} />;
}

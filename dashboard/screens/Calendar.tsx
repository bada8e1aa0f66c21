import type { JSX } from 'preact';
import type { Model } from '../state/model.js';
import { Placeholder } from './Placeholder.js';

export const titleCalendar = (m: Model): string => (void m, 'Calendar');

export function Calendar({ m }: { m: Model }): JSX.Element {
  return <Placeholder title={titleCalendar(m)} />;
}

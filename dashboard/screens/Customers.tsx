import type { JSX } from 'preact';
import type { Model } from '../state/model.js';
import { Placeholder } from './Placeholder.js';

export const titleCustomers = (m: Model): string => (void m, 'Customers');

export function Customers({ m }: { m: Model }): JSX.Element {
  return <Placeholder title={titleCustomers(m)} />;
}

import type { JSX } from 'preact';
import type { Model } from '../state/model.js';
import { Placeholder } from './Placeholder.js';

export const titleCustomer = (m: Model): string => (void m, 'Customer');

export function Customer({ m }: { m: Model }): JSX.Element {
  return <Placeholder title={titleCustomer(m)} />;
}

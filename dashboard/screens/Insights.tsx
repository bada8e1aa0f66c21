import type { JSX } from 'preact';
import type { Model } from '../state/model.js';
import { Placeholder } from './Placeholder.js';

export const titleInsights = (m: Model): string => (void m, 'Insights');

export function Insights({ m }: { m: Model }): JSX.Element {
  return <Placeholder title={titleInsights(m)} />;
}

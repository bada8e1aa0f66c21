import type { JSX } from 'preact';
import type { Model } from '../state/model.js';
import { Placeholder } from './Placeholder.js';

export const titleExperience = (m: Model): string => (void m, 'Experience');

export function Experience({ m }: { m: Model }): JSX.Element {
  return <Placeholder title={titleExperience(m)} />;
}

import type { JSX } from 'preact';
import type { Model } from '../state/model.js';
import { Placeholder } from './Placeholder.js';

export const titleExperiences = (m: Model): string => (void m, 'Experiences');

export function Experiences({ m }: { m: Model }): JSX.Element {
  return <Placeholder title={titleExperiences(m)} />;
}

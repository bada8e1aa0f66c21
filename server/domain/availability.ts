/** One slot with its places, as the domain sees it (instants in epoch ms). */
export interface SlotPlaces {
  id: string;
  start: number;
  end: number;
  capacity: number;
  booked: number;
  remaining: number;
  unavailableReason: 'CLOSED' | 'FULL' | 'BLOCKED' | null;
}

export interface ExperienceAvailability {
  experienceId: string;
  timezone: string;
  startDate: string;
  endDate: string;
  slots: SlotPlaces[];
  /** The experience's notice period: an answer stays true until its first slot enters it. */
  minNoticeMinutes: number;
  /** Asked with `ignoreNotice`: an answer stays true until its first slot ends. */
  ignoreNotice?: boolean;
}

/** One departure as the API shows it (GET /v1/slots/{id}): its places and the operator's settings. */
export interface SlotView {
  id: string;
  experienceId: string;
  start: number;
  end: number;
  /** capacityOverride ?? the experience's maxParticipants. */
  capacity: number;
  capacityOverride: number | null;
  closed: boolean;
  note: string | null;
  booked: number;
  remaining: number;
}

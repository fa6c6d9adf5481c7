// The stages of an incident an "about to be disabled" alert follows (incident-conditions.ts), kept
// in the alert's details as `stage`. Plain values: the alerts table shows them too.

export type TIncidentStage = 'failing' | 'disabled' | 'enabled';
export const INCIDENT_STAGES: readonly TIncidentStage[] = ['failing', 'disabled', 'enabled'];
/** The stages whose start is a new notice of the same alert (the others only update it). */
export const ESCALATING_STAGES: readonly TIncidentStage[] = ['disabled'];

/** An alert's stage; `failing` for one without (fired before stages were kept). */
export const stageOf = (details: unknown): TIncidentStage => {
  const stage = (details as { stage?: unknown } | null)?.stage;
  return INCIDENT_STAGES.includes(stage as TIncidentStage) ? (stage as TIncidentStage) : 'failing';
};

import type { ActivityRow } from '../store/activity.js';
import { iso } from './instant.js';
import type { Activity } from '../../shared/index.js';

export function serializeActivity(row: ActivityRow): Activity {
  return {
    id: row.id,
    actor: { type: row.actorType, id: row.actorId, name: row.actorName },
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    summary: row.summary,
    ip: row.ip,
    createdAt: iso(row.createdAt),
  };
}

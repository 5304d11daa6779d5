import { handleOnce, type Bus, type Subscription } from '@svc/bus';
import type { Db } from '@svc/db';
import { inbox } from '../../db/schema.js';
import type { ScheduleService } from '../services/schedule.service.js';

/**
 * A tenant installed a pack, or moved its installation to another version: the schedules that
 * version proposes are created, paused, for that tenant (one API replica handles each event,
 * once). A proposal the tenant has already, changed or not, is left as it is.
 */
export function consumeScheduleProposals(bus: Bus, db: Db, schedules: ScheduleService): Promise<Subscription> {
  return bus.subscribe(
    'execution.schedules',
    ['pack.installed', 'pack.installation.changed'],
    handleOnce(db, inbox, async (message, tx) => {
      await schedules.propose(message.payload, tx);
    }),
  );
}

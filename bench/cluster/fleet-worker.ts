// A worker process of the cluster benchmark's fleet (bench/cluster/fleet.ts): runs the runners it is given
// and answers with their poll counts when asked.
import { LocalFleet, type FleetPlan } from './fleet';

const fleet = new LocalFleet();

process.on('message', (m: { type: 'add' | 'take' | 'stop'; seq: number; plan?: FleetPlan }) => {
  const reply = (stats: unknown) => process.send?.({ type: 'stats', stats, seq: m.seq });
  if (m.type === 'add' && m.plan) void fleet.add(m.plan).then(() => reply(null));
  else if (m.type === 'take') void fleet.take().then(reply);
  else if (m.type === 'stop') void fleet.stop().then(reply);
});
process.on('disconnect', () => process.exit(0));

// The demo data behind `RUNWAY_DEMO=true` and `runway seed`. Each part is idempotent and owns its own
// file; later parts build on earlier ones (repositories use the demo projects, runners their commits).
import { seedPlatformDemo } from './platform';
import { seedRepositoriesDemo } from './repositories';
import { seedRunnersDemo } from './runners';
import { seedRunnerCleanupDemo } from './runner-cleanup';
import { seedAuditDemo } from './audit';
import { seedFleetDemo } from './fleet';
import { seedFleetAlertsDemo } from './fleet-alerts';
import { reconcileRunnerVersions } from '../runners/releases';

export async function seedDemo(): Promise<void> {
  await seedPlatformDemo();
  await seedRepositoriesDemo();
  await seedRunnersDemo();
  // The demo managers' upgrade statuses now, not at the worker's next reconcile.
  await reconcileRunnerVersions();
  await seedRunnerCleanupDemo();
  await seedAuditDemo();
  // Last: today's fleet snapshot counts every runner seeded above.
  await seedFleetDemo();
  // After the runners: the check it runs measures them.
  await seedFleetAlertsDemo();
}
